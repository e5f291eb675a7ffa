import Foundation

/// What signs provider tokens: a `.p8` key, its Key ID and the Team ID. Apple's ids are 10 characters
/// A-Z0-9, but any non-empty id without whitespace is accepted (simulators may use other ids).
public struct ProviderCredentials: Sendable {
    /// The signing key.
    public let key: APNsSigningKey
    /// The `kid`: the key's id.
    public let keyID: String
    /// The `iss`: the team's id.
    public let teamID: String

    /// Validates the ids.
    public init(key: APNsSigningKey, keyID: String, teamID: String) throws(ProviderCredentialsError) {
        try Self.validate(keyID, field: .keyID)
        try Self.validate(teamID, field: .teamID)
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Validates the ids, then loads the `.p8` file (`~` is expanded).
    public init(keyFile path: String, keyID: String, teamID: String) throws(ProviderCredentialsError) {
        try Self.validate(keyID, field: .keyID)
        try Self.validate(teamID, field: .teamID)
        let expanded = NSString(string: path).expandingTildeInPath
        let key: APNsSigningKey
        do {
            key = try APNsSigningKey(contentsOfFile: expanded)
        } catch {
            throw .key(path: expanded, error)
        }
        try self.init(key: key, keyID: keyID, teamID: teamID)
    }

    /// Signs a provider token issued at `issuedAt`.
    public func makeToken(issuedAt: Date) -> ProviderToken {
        ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: issuedAt)
    }

    /// Checks one id: non-empty, no whitespace or control characters.
    public static func validate(_ value: String, field: ProviderCredentialsError.Field) throws(ProviderCredentialsError) {
        guard !value.isEmpty else { throw .empty(field) }
        guard !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .containsWhitespace(field)
        }
    }
}

/// Why provider credentials are not usable.
public enum ProviderCredentialsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which id.
    public enum Field: String, Sendable, Equatable {
        case keyID = "key id"
        case teamID = "team id"
    }

    /// The id is empty.
    case empty(Field)
    /// The id contains whitespace or control characters.
    case containsWhitespace(Field)
    /// The key file could not be loaded.
    case key(path: String, APNsKeyError)

    public var description: String {
        switch self {
        case .empty(let field):
            return "the \(field.rawValue) is empty; Apple's are 10 characters A-Z 0-9 (see Certificates, Identifiers & Profiles > Keys)"
        case .containsWhitespace(let field):
            return "the \(field.rawValue) contains whitespace or control characters; Apple's are 10 characters A-Z 0-9"
        case .key(let path, let error):
            switch error {
            case .fileNotFound, .fileUnreadable: return error.description
            default: return "key file \(path): \(error.description)"
            }
        }
    }
}
