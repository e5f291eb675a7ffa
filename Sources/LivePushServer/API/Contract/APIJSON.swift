import Foundation
import LiveActivity

/// How the API's JSON is written and read: responses carry ISO 8601 dates without fractional seconds and
/// sorted keys; request dates are sent as Unix seconds (`APIDate`). Clients decode the response types
/// with `decoder()` and encode the request types with `encoder()`.
package enum APIJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// A date in a request body. Encoded as Unix seconds (a JSON number); decoded from Unix seconds, ISO 8601
/// or a relative time (`+30m`), the forms the server accepts.
package struct APIDate: Codable, Sendable, Hashable {
    package var date: Date

    package init(_ date: Date) { self.date = date }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            date = Date(timeIntervalSince1970: seconds)
            return
        }
        let text = try container.decode(String.self)
        do {
            date = try DateInput.parse(text, now: Date())
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date.timeIntervalSince1970)
    }
}
