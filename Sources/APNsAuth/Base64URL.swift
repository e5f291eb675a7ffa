import Foundation

/// Base64url (RFC 4648 §5) as JWTs use it: `-` and `_` instead of `+` and `/`, no `=` padding.
public enum Base64URL {
    /// Encodes bytes without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(
            text.map { character -> Character in
                switch character {
                case "+": return "-"
                case "/": return "_"
                default: return character
                }
            })
    }

    /// Decodes base64url text, with or without `=` padding. Returns nil for characters outside the
    /// base64url alphabet (including `+`, `/` and whitespace) or an impossible length.
    public static func decode(_ text: String) -> Data? {
        var body = Substring(text)
        while body.last == "=" { body.removeLast() }
        guard text.count - body.count <= 2, body.count % 4 != 1 else { return nil }
        var standard = ""
        standard.reserveCapacity(body.count + 3)
        for character in body {
            switch character {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "A"..."Z", "a"..."z", "0"..."9": standard.append(character)
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard)
    }
}
