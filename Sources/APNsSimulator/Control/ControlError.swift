import Foundation
import Hummingbird

/// A refused control request, answered as `{"error":{"field":…,"message":…}}` with a 4xx status.
struct ControlError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    /// The request field at fault (nil when the request as a whole is wrong).
    var field: String?
    var message: String

    init(_ status: HTTPResponse.Status, field: String?, _ message: String) {
        self.status = status
        self.field = field
        self.message = message
    }

    init(_ error: DeviceWorldError) {
        self.init(HTTPResponse.Status(code: error.status), field: error.field, error.message)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        ControlResponse.json(ErrorBody(error: ErrorBody.Detail(field: field, message: message)), status: status)
    }

    struct ErrorBody: Encodable {
        struct Detail: Encodable {
            var field: String?
            var message: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(field, forKey: .field)
                try container.encode(message, forKey: .message)
            }

            enum CodingKeys: String, CodingKey { case field, message }
        }

        var error: Detail
    }

    /// Names the field of a JSON decoding failure and what it accepts.
    static func from(_ error: DecodingError) -> ControlError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String? {
            let keys = codingPath + (last.map { [$0] } ?? [])
            guard !keys.isEmpty else { return nil }
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return ControlError(.badRequest, field: path(context.codingPath, key), "is required")
        case .typeMismatch(let type, let context):
            return ControlError(.badRequest, field: path(context.codingPath), "has the wrong type; expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return ControlError(.badRequest, field: path(context.codingPath), "must not be null; expected \(describe(type))")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if field == nil {
                let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return ControlError(.badRequest, field: nil, "request body is not valid JSON: \(detail ?? context.debugDescription)")
            }
            return ControlError(.badRequest, field: field, context.debugDescription)
        @unknown default:
            return ControlError(.badRequest, field: nil, "request body could not be read: \(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Double.Type, is Int64.Type: return "a number"
        case is Date.Type: return "an ISO 8601 date string such as 2026-01-01T12:00:00Z"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") { return "an object" }
            if name.hasPrefix("Array") { return "an array" }
            return name
        }
    }
}

/// Turns every error of a control route, including Hummingbird's own (unknown route, body too large),
/// into the JSON error shape.
struct ControlErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ControlError {
            throw error
        } catch let error as HTTPError {
            let message: String
            switch error.status {
            case .notFound: message = "no route \(request.method.rawValue) \(request.uri.path); see GET /health and the /v1 routes"
            case .methodNotAllowed: message = "method \(request.method.rawValue) is not allowed on \(request.uri.path)"
            case .contentTooLarge: message = "request body is too large (limit 1 MiB)"
            default: message = error.body ?? "request failed"
            }
            throw ControlError(error.status, field: nil, message)
        }
    }
}
