import Foundation

/// APNs' error body and GOAWAY debug data: `{"reason":"…"}`, plus `"timestamp"` (ms since 1970) for 410.
enum ErrorBodyJSON {
    static func encode(reason: String, timestamp: Date?) -> String {
        var json = #"{"reason":"# + quoted(reason)
        if let timestamp {
            json += #","timestamp":"# + String(Int64((timestamp.timeIntervalSince1970 * 1000).rounded(.down)))
        }
        return json + "}"
    }

    private static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
