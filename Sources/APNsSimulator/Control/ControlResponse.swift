import Foundation
import Hummingbird
import NIOCore

/// JSON bodies of the control API (ISO 8601 dates).
enum ControlResponse {
    static let maximumBodyBytes = 1 << 20

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? SimulatorJSON.encoder().encode(value)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Decodes a JSON request body; errors name the field and what it accepts.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, allowEmpty: Bool = false) async throws -> T? {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodyBytes)
        } catch {
            throw ControlError(.contentTooLarge, field: nil, "request body is over \(maximumBodyBytes) bytes")
        }
        if buffer.readableBytes == 0 {
            if allowEmpty { return nil }
            throw ControlError(.badRequest, field: nil, "request body is empty; expected a JSON object")
        }
        // A web page can send a cross-site `text/plain` or form body without asking first; JSON it cannot.
        guard isJSON(request.headers[.contentType]) else {
            throw ControlError(
                .unsupportedMediaType, field: "Content-Type",
                "is '\(request.headers[.contentType] ?? "")'; the control API takes JSON bodies only: send 'Content-Type: application/json'")
        }
        do {
            return try SimulatorJSON.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw ControlError.from(error)
        }
    }

    /// `application/json` or a `+json` type, with any parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    static func require<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        guard let value = try await decode(type, from: request) else {
            throw ControlError(.badRequest, field: nil, "request body is empty; expected a JSON object")
        }
        return value
    }

    /// A path parameter, percent-decoded: channel ids are base64 and may hold `/`, `+` and `=`, which a
    /// client sends as `%2F`, `%2B` and `%3D`.
    static func parameter(_ name: String, _ context: some RequestContext) throws -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else {
            throw ControlError(.badRequest, field: name, "is missing from the path")
        }
        guard let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw ControlError(.badRequest, field: name, "'\(raw)' is not valid percent-encoding (%XX with two hex digits, UTF-8)")
        }
        return value
    }
}
