import Foundation

/// `apns-id` rules: a canonical 8-4-4-4-12 UUID. Apple's text asks for lowercase; APNs itself returns
/// uppercase ids. Whether uppercase is accepted in requests is not documented.
public enum APNsID {
    /// Parses an `apns-id` value. With `allowUppercase` false, only lowercase hex is accepted.
    public static func parse(_ value: String, allowUppercase: Bool = true) -> UUID? {
        let utf8 = Array(value.utf8)
        guard utf8.count == 36 else { return nil }
        for (index, byte) in utf8.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F") where allowUppercase: break
                default: return nil
                }
            }
        }
        return UUID(canonical: value)
    }

    /// A new id as APNs generates them: uppercase.
    public static func generate() -> String { UUID().uuidString.uppercased() }
}
