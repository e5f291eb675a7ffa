import Hummingbird
import Logging
import PushStore

/// Turns every failure of a route into a JSON error: `APIError` as it is, Hummingbird's own errors
/// (unknown route, wrong method) as 404/405, and anything unexpected as a 503 (the store is
/// unavailable) without internals. No request gets a 500 with a stack of details.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as PushStoreError {
            return StoreErrorMapping.apiError(error, logger: logger).response
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                return APIError(.notFound, field: nil, rule: "route", "no route \(request.method) \(request.uri.path); see /openapi.json").response
            case .methodNotAllowed:
                return APIError(.methodNotAllowed, field: nil, rule: "method", "\(request.method) is not allowed on \(request.uri.path); see /openapi.json").response
            case .contentTooLarge:
                return APIError(.contentTooLarge, field: nil, rule: "maxBodySize", "the request body is too large").response
            default:
                let status = error.status.code >= 500 ? HTTPResponse.Status.serviceUnavailable : error.status
                return APIError(status, field: nil, rule: "http", error.body ?? error.status.reasonPhrase).response
            }
        } catch {
            logger.error("request failed unexpectedly", metadata: ["path": "\(request.uri.path)", "error": "\(type(of: error))"])
            return APIError(.serviceUnavailable, field: nil, rule: "unavailable", "the server could not complete the request; retry later").response
        }
    }
}

/// Maps store failures to API errors.
enum StoreErrorMapping {
    static func apiError(_ error: PushStoreError, logger: Logger) -> APIError {
        switch error {
        case .notFound(let kind, let id):
            return APIError(.notFound, field: kind.rawValue + "Id", rule: "exists", "no \(kind.rawValue) '\(id)' is registered")
        case .conflict(let detail):
            return APIError(.conflict, field: nil, rule: "conflict", detail)
        case .invalidInput(let field, let rule):
            return APIError(.badRequest, field: field, rule: "invalid", rule)
        case .unavailable(let detail), .database(let detail):
            logger.error("store failed", metadata: ["error": "\(detail)"])
            return APIError(.serviceUnavailable, field: nil, rule: "unavailable", "storage is unavailable; retry later (nothing was written)")
        }
    }
}
