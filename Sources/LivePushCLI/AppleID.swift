/// Apple's Key IDs and Team IDs: exactly 10 uppercase letters or digits. The libraries accept any id
/// (simulators and tests use others); the command line refuses the rest, whose mistake would otherwise
/// only show at APNs as a 403.
enum AppleID {
    enum Kind: String {
        case keyID = "Key IDs"
        case teamID = "Team IDs"
    }

    static let length = 10

    /// nil when `value` is a well-formed id, else what is wrong with it, naming `source` (the flag or the
    /// environment variable), e.g. "--team-id: 'TEAM' is 4 characters; Apple's Team IDs are exactly 10
    /// uppercase letters or digits (A-Z, 0-9)".
    static func problem(_ value: String, kind: Kind, source: String) -> String? {
        let rule = "Apple's \(kind.rawValue) are exactly \(length) uppercase letters or digits (A-Z, 0-9)"
        let characters = Array(value)
        if let bad = characters.first(where: { !isAllowed($0) }) {
            if characters.allSatisfy({ isAllowed($0) || ($0.isASCII && $0.isLowercase) }) {
                return "\(source): '\(value)' has lowercase letters; \(rule)"
                    + (characters.count == length ? ", e.g. '\(value.uppercased())'" : "")
            }
            let shown =
                bad.isWhitespace || bad.asciiValue.map({ $0 < 0x20 || $0 == 0x7F }) == true
                ? "whitespace or a control character" : "'\(bad)'"
            return "\(source): '\(value)' contains \(shown); \(rule)"
        }
        guard characters.count == length else {
            let count = characters.count == 1 ? "1 character" : "\(characters.count) characters"
            return "\(source): '\(value)' is \(count); \(rule)"
        }
        return nil
    }

    private static func isAllowed(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(ascii) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(ascii)
    }
}
