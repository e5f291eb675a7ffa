import Hummingbird
import Logging

/// Turns every failure of a route into a JSON error: `APIError` as it is, Hummingbird's own errors
/// (unknown route; a known path with another method is 405 with `Allow`) as 404/405, and anything unexpected as a 503 (the store is
/// unavailable) without internals. No request gets a 500 with a stack of details.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let methods: MethodTable

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as DomainError {
            if error.kind == .unavailable { logger.error("store failed", metadata: ["error": "\(error.message)"]) }
            return APIError(error).response
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                let allowed = methods.methods(for: request.uri.path)
                guard !allowed.isEmpty else {
                    return APIError(.notFound, field: nil, rule: "route", "no route \(request.method) \(request.uri.path); see /openapi.json")
                        .response
                }
                let list = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                var response = APIError(
                    .methodNotAllowed, field: nil, rule: "method", "\(request.method) is not allowed on \(request.uri.path); allowed: \(list)"
                ).response
                response.headers[.allow] = list
                return response
            case .methodNotAllowed:
                return APIError(
                    .methodNotAllowed, field: nil, rule: "method", "\(request.method) is not allowed on \(request.uri.path); see /openapi.json"
                ).response
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
