import Foundation
import Hummingbird
import NIOCore

/// A request the API refuses: the HTTP status and `{"error":{"field":…,"rule":…,"message":…}}`.
package struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    package var status: HTTPResponse.Status
    /// The body field, path parameter or header at fault (`contentState`, `activityId`, `Authorization`).
    package var field: String?
    /// The rule it broke, as a short machine-readable word (`required`, `hex`, `date`, `scope`, `maxSize`).
    package var rule: String
    /// One sentence for a person: what was wrong and what is accepted.
    package var message: String

    package init(_ status: HTTPResponse.Status, field: String?, rule: String, _ message: String) {
        self.status = status
        self.field = field
        self.rule = rule
        self.message = message
    }

    package var description: String { "\(status.code) \(field ?? "-") \(rule): \(message)" }

    static func badRequest(_ field: String?, _ rule: String, _ message: String) -> APIError {
        APIError(.badRequest, field: field, rule: rule, message)
    }

    static func notFound(_ field: String, _ message: String) -> APIError {
        APIError(.notFound, field: field, rule: "exists", message)
    }

    static func conflict(_ field: String?, _ rule: String, _ message: String) -> APIError {
        APIError(.conflict, field: field, rule: rule, message)
    }

    /// The JSON body of the error response.
    var body: JSONErrorBody {
        JSONErrorBody(error: .init(field: field, rule: rule, message: message))
    }

    /// The error as a response.
    var response: Response {
        APIResponse.json(body, status: status)
    }
}

extension APIError {
    /// The one mapping from domain refusals to HTTP: invalid 400, forbidden 403, notFound 404, conflict 409,
    /// keyReused and undecodable 422, upstream 502, unavailable 503 (answered without internals; the middleware logs it).
    init(_ error: DomainError) {
        switch error.kind {
        case .invalid: self.init(.badRequest, field: error.subject, rule: error.rule, error.message)
        case .forbidden: self.init(.forbidden, field: error.subject, rule: error.rule, error.message)
        case .notFound: self.init(.notFound, field: error.subject, rule: error.rule, error.message)
        case .conflict: self.init(.conflict, field: error.subject, rule: error.rule, error.message)
        case .upstream: self.init(.badGateway, field: error.subject, rule: error.rule, error.message)
        case .keyReused, .undecodable: self.init(.unprocessableContent, field: error.subject, rule: error.rule, error.message)
        case .unavailable:
            self.init(.serviceUnavailable, field: nil, rule: "unavailable", "storage is unavailable; retry later (nothing was written)")
        }
    }
}
