import APIContract
import Foundation
import Hummingbird
import LiveActivity
import NIOCore
import NIOHTTP1

/// A request body's bytes and their JSON, before the contract checks them (`ContractRoute.body`, which then
/// decodes the checked value as the contract's generated type of the body).
enum JSONBody {
    static let maximumBytes = 64 * 1024

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
}
