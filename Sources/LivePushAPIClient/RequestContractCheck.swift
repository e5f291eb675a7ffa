import APIContract
import Foundation
import HTTPTypes
import LiveActivity
import OpenAPIRuntime

/// Checks each request against the API's contract before it is sent, with the server's own rules (the
/// same `openapi.json`, the same validator): a request the server would refuse with 400 is not sent, and
/// the call throws `ClientError` whose `underlyingError` is a `RequestRefusedByContract` naming the field,
/// the rule and what is accepted. Add it to the client's middlewares:
///
///     Client(serverURL: url, transport: transport, middlewares: [RequestContractCheck(), BearerAuthentication(token)])
public struct RequestContractCheck: ClientMiddleware {
    /// The largest body checked: the server's largest limit, an audience start's (`POST /v1/starts`, up to
    /// 10,000 user ids; every other operation takes 64 KiB). A body known to be larger is sent unchecked,
    /// for the server to refuse (413).
    static let maximumBytes = 2 * 1024 * 1024

    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let operation = APIContract.shared.operations[operationID] else { return try await next(request, body, baseURL) }
        var checked = body
        var value: JSONValue?
        if let body {
            if case .known(let length) = body.length, length > Int64(Self.maximumBytes) { return try await next(request, body, baseURL) }
            let data = try await Data(collecting: body, upTo: Self.maximumBytes)
            checked = HTTPBody(data)
            if !data.isEmpty {
                // Text that is not JSON is the server's to refuse (400 json), with its own words.
                guard let parsed = try? JSONValue.parse(data) else { return try await next(request, checked, baseURL) }
                value = parsed
            }
        }
        do throws(ContractViolation) {
            for (name, parameter) in Self.pathParameters(of: request, template: operation.path) {
                try operation.checkParameter(name, parameter, now: Date())
            }
            try operation.checkBody(value, now: Date())
        } catch {
            throw RequestRefusedByContract(operationID: operationID, error)
        }
        return try await next(request, checked, baseURL)
    }

    /// The values of the template's `{name}` segments in the request's path, percent-decoded.
    static func pathParameters(of request: HTTPRequest, template: String) -> [(String, String)] {
        let path = (request.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let names = template.split(separator: "/", omittingEmptySubsequences: false)
        let values = path.split(separator: "/", omittingEmptySubsequences: false)
        // The server URL may carry a prefix: the template matches the path's last segments.
        guard values.count >= names.count else { return [] }
        return zip(names, values.suffix(names.count)).compactMap { name, value in
            guard name.hasPrefix("{"), name.hasSuffix("}") else { return nil }
            return (String(name.dropFirst().dropLast()), value.removingPercentEncoding ?? String(value))
        }
    }
}

/// A request the contract refuses, found before it was sent: what the server would answer with 400.
public struct RequestRefusedByContract: Error, Sendable, Hashable, CustomStringConvertible {
    public var operationID: String
    /// The body field, path parameter or header at fault (`bundleId`, `alert.title`, `groups[0]`).
    public var field: String?
    /// The rule it breaks (`maxLength`, `required`, `hex`…): the `rule` the server would answer.
    public var rule: String
    /// What was wrong and what is accepted.
    public var message: String

    init(operationID: String, _ violation: ContractViolation) {
        self.operationID = operationID
        field = violation.field
        rule = violation.rule
        message = violation.message
    }

    public var description: String { "\(operationID): \(field ?? "the request") breaks \(rule): \(message)" }
}
