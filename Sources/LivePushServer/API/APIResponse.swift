import Foundation
import Hummingbird
import NIOCore

/// JSON responses of the API: ISO 8601 dates, sorted keys.
enum APIResponse {
    /// Foundation's encoder with the API's settings; the answers are written by ``JSONValueEncoder``, byte for
    /// byte the same.
    static func encoder() -> JSONEncoder { APIJSON.encoder() }

    /// A value as the API's JSON text.
    static func encode(_ value: some Encodable) throws -> Data {
        try JSONValueEncoder.data(value)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data =
            (try? encode(value)) ?? Data(#"{"error":{"field":null,"rule":"encoding","message":"the response could not be encoded"}}"#.utf8)
        return raw(data, contentType: "application/json; charset=utf-8", status: status)
    }

    static func raw(_ data: Data, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
