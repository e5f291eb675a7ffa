import APIContract
import Foundation
import Hummingbird
import LiveActivity
import NIOCore
import NIOHTTP1

/// A request body the contract has accepted (`ContractRoute.body`), read field by field. The contract
/// holds every rule; what is left here is reading: a member of the wrong type cannot reach a route.
struct JSONBody: Sendable {
    static let maximumBytes = 64 * 1024

    let fields: [String: JSONValue]

    /// The body's bytes, at most `limit` (`maximumBytes` unless the route takes more). A body the HTTP
    /// decoder cannot frame (a chunk size that is not hex digits) is a bad request, not one too large.
    static func collect(_ request: Request, limit: Int = maximumBytes) async throws(APIError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch let error as HTTPParserError {
            throw APIError(
                .badRequest, field: nil, rule: "framing",
                "the request body is not framed as HTTP/1.1 requires (\(error)); send Content-Length or valid chunked encoding")
        } catch {
            throw APIError(.contentTooLarge, field: nil, rule: "maxBodySize", "the request body is over \(limit) bytes")
        }
    }

    /// Parses body bytes as JSON text (UTF-8).
    static func parse(_ buffer: ByteBuffer) throws(APIError) -> JSONValue {
        do {
            return try JSONValue.parse(Data(buffer.readableBytesView), rejectingDuplicateKeys: true)
        } catch .duplicateKey(let path) {
            throw .badRequest(
                path, "duplicateKey", "'\(path)' is given twice in one object; readers could take either value, so give each key once")
        } catch .invalidUTF8(let path, _) {
            throw .badRequest(
                path.isEmpty ? nil : path, "utf8", "'\(path)' is not valid UTF-8; JSON text must be UTF-8 (nothing is replaced or stored)")
        } catch {
            throw .badRequest(nil, "json", "the request body is not valid JSON: \(error.description)")
        }
    }

    /// A member the route needs and the contract requires. Missing only if the document stopped requiring
    /// it while the server still reads it: a defect of the server, answered 500 rather than guessed.
    func required<Value>(_ key: String, _ read: (String) -> Value?) throws(APIError) -> Value {
        guard let value = read(key) else {
            throw APIError(
                .internalServerError, field: key, rule: "contract", "the server reads '\(key)', which the contract does not require; report this")
        }
        return value
    }

    func string(_ key: String) -> String? { fields[key]?.stringValue }

    func bool(_ key: String) -> Bool? { fields[key]?.boolValue }

    func number(_ key: String) -> Double? { fields[key]?.numberValue }

    /// A whole number (the contract's `integer`).
    func integer(_ key: String) -> Int? { fields[key]?.numberValue.map { Int($0) } }

    func object(_ key: String) -> JSONBody? { fields[key]?.objectValue.map { JSONBody(fields: $0) } }

    /// A JSON object kept as a value (content-state, attributes).
    func objectValue(_ key: String) -> JSONValue? { fields[key]?.objectValue.map { .object($0) } }

    func strings(_ key: String) -> [String]? { fields[key]?.arrayValue?.compactMap(\.stringValue) }

    /// A date the contract has accepted: Unix seconds, ISO 8601 or relative to `now`.
    func date(_ key: String, now: Date) -> Date? { fields[key].flatMap { APIContract.date($0, now: now) } }
}
