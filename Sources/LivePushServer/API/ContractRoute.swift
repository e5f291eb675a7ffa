import APIContract
import Foundation
import Hummingbird
import LiveActivity
import NIOCore

/// The operation of the contract a route serves: its body and parameters are checked against
/// `openapi.json` (`APIContract`) before the route reads them, so every rule of a request (lengths,
/// patterns, enums, required and unknown fields, date windows) is written once, in the document.
struct ContractRoute: Sendable {
    let operation: APIContract.Operation

    /// The operation `operationID` of the contract (a route naming one the document lacks stops the server
    /// at start: a defect that every test of the route finds).
    init(_ operationID: String) {
        operation = APIContract.shared.operation(operationID)
    }

    /// Collects the body, checks it against the operation's schema, and decodes it as the contract's
    /// generated type of that body (`Schemas`): the route reads typed members, not members by name.
    func body<Body: Decodable>(_ type: Body.Type, _ request: Request, now: Date) async throws(APIError) -> Body {
        try body(type, try await JSONBody.collect(request), now: now)
    }

    /// Checks collected body bytes against the operation's schema, and decodes the value parsed for that check
    /// (the bytes are parsed once) as the contract's generated type `Body`. No body (where the contract allows
    /// none) decodes as `{}`.
    func body<Body: Decodable>(_ type: Body.Type, _ buffer: ByteBuffer, now: Date) throws(APIError) -> Body {
        // `.none`, not `nil`: JSONValue is itself expressible by `nil` (as JSON null).
        let value: JSONValue? = buffer.readableBytes == 0 ? .none : try JSONBody.parse(buffer)
        do {
            try operation.checkBody(value, now: now)
        } catch {
            throw APIError(error)
        }
        do {
            return try JSONValueDecoder.decode(type, from: value.flatMap { $0 == .null ? nil : $0 } ?? .object([:]))
        } catch {
            // The contract accepted the body, and the type is generated from the contract: a defect of the server.
            throw APIError(
                .internalServerError, field: nil, rule: "contract",
                "a body the contract accepts does not decode as the contract's \(Body.self): \(error); report this")
        }
    }

    /// A path parameter, percent-decoded (an id registered as `café/1` is reached as `caf%C3%A9%2F1`) and
    /// checked against its schema.
    func pathID(_ name: String, _ context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else {
            throw .badRequest(name, "required", "'\(name)' is missing from the path")
        }
        // Most ids have no escapes: Foundation's decoding (an NSString search) is skipped for them.
        guard let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw else {
            throw .badRequest(name, "percentEncoding", "'\(name)' is not valid percent-encoded UTF-8; encode each byte of the UTF-8 id as %XX")
        }
        try check(name, value)
        return value
    }

    /// A query parameter, checked against its schema; nil when absent.
    func query(_ name: String, _ request: Request) throws(APIError) -> String? {
        guard let value = request.uri.queryParameters.get(name) else { return nil }
        try check(name, value)
        return value
    }

    private func check(_ name: String, _ value: String) throws(APIError) {
        do {
            try operation.checkParameter(name, value, now: Date())
        } catch {
            throw APIError(error)
        }
    }
}

extension APIError {
    /// A request the contract refuses: 400 with the violation's field, rule and message.
    init(_ violation: ContractViolation) {
        self.init(.badRequest, field: violation.field, rule: violation.rule, violation.message)
    }
}
