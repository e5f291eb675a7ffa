/// The form of a bundle id wherever one reaches APNs, in a path (`/4/broadcasts/apps/<bundle id>`,
/// `/1/apps/<bundle id>/channels`) or a header (`apns-topic`): dot-separated labels of ASCII letters,
/// digits, `-` and `_`, none of them empty (`com.example.rangers`). Nothing else can change the path
/// it is put in (no `/`, `?`, `%`, `..`) or the header.
public enum APNsBundleID {
    /// The form, as a regular expression, for messages and the API contract.
    public static let pattern = "^[A-Za-z0-9_-]+([.][A-Za-z0-9_-]+)*$"

    /// The longest text accepted (a topic adds a suffix of up to 23 characters to the bundle id).
    public static let maximumLength = 255

    /// Whether `text` has the form (checked byte by byte; no regular expression per push).
    public static func isValid(_ text: String) -> Bool {
        var label = 0
        var count = 0
        for byte in text.utf8 {
            count += 1
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                label += 1
            case UInt8(ascii: "."):
                guard label > 0 else { return false }
                label = 0
            default:
                return false
            }
        }
        return label > 0 && count <= maximumLength
    }
}

/// Path segments of requests to APNs.
public enum APNsPath {
    /// `text` percent-encoded as one path segment: every byte outside the unreserved characters of RFC
    /// 3986 (letters, digits, `-`, `.`, `_`, `~`) is written `%XX`, so nothing in it adds a segment or a
    /// query. A segment that would be `.` or `..` is encoded whole.
    public static func segment(_ text: String) -> String {
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
