import Foundation
import LiveActivity

/// The JSON conventions of the simulator's control API and event stream: ISO 8601 dates, sorted keys.
public enum SimulatorJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A value as a JSON tree with ISO 8601 dates (`.null` if it cannot be encoded).
    static func tree(_ value: some Encodable) -> JSONValue {
        guard let data = try? encoder().encode(value), let tree = try? JSONValue.parse(data) else { return .null }
        return tree
    }
}
