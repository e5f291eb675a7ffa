import APNsCore
import Crypto
import Foundation

/// A provider key the simulated APNs trusts: its public half only, never a private key.
public struct TrustedKey: Sendable, Hashable, Codable {
    /// The 10-character Key ID (`kid` of the JWT).
    public let keyID: String
    /// The 10-character Team ID (`iss` of the JWT).
    public let teamID: String
    /// The one environment the key is restricted to; nil: valid in both (an older team key).
    public let environment: APNsEnvironment?
    /// The topics a topic-specific key may push to; nil: every topic of the team (a team-scoped key).
    public let topics: Set<String>?
    /// The Key ID of the one key Apple lets share a connection with this one (a topic-specific key's
    /// "related" key); nil: none. The relation goes both ways.
    public let relatedKeyID: String?
    /// The public key, as PEM (`-----BEGIN PUBLIC KEY-----`).
    public let publicKeyPEM: String
    /// The public key, for verifying provider tokens.
    public let publicKey: P256.Signing.PublicKey

    public init(
        keyID: String, teamID: String, publicKey: P256.Signing.PublicKey,
        environment: APNsEnvironment? = nil, topics: Set<String>? = nil, relatedKeyID: String? = nil
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.environment = environment
        self.topics = topics
        self.relatedKeyID = relatedKeyID
        self.publicKey = publicKey
        self.publicKeyPEM = publicKey.pemRepresentation
    }

    /// True when the key may sign pushes for this topic.
    public func allows(topic: String) -> Bool {
        topics?.contains(topic) ?? true
    }

    /// True when the key may be used on this environment.
    public func allows(environment: APNsEnvironment) -> Bool {
        self.environment.map { $0 == environment } ?? true
    }

    /// True when a connection bound to this key may also carry `other`'s tokens: the same key, or its
    /// related key (either side naming the other).
    public func isRelated(to other: TrustedKey) -> Bool {
        other.keyID == keyID || relatedKeyID == other.keyID || other.relatedKeyID == keyID
    }

    /// A team-scoped key: valid for every topic of its team.
    public var isTeamScoped: Bool { topics == nil }

    private enum CodingKeys: String, CodingKey {
        case keyID, teamID, environment, topics, relatedKeyID, publicKeyPEM
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pem = try container.decode(String.self, forKey: .publicKeyPEM)
        do {
            publicKey = try P256.Signing.PublicKey(pemRepresentation: pem)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .publicKeyPEM, in: container,
                debugDescription: "publicKeyPEM is not a P-256 public key PEM (-----BEGIN PUBLIC KEY-----)"
            )
        }
        publicKeyPEM = publicKey.pemRepresentation
        keyID = try container.decode(String.self, forKey: .keyID)
        teamID = try container.decode(String.self, forKey: .teamID)
        environment = try container.decodeIfPresent(APNsEnvironment.self, forKey: .environment)
        topics = try container.decodeIfPresent(Set<String>.self, forKey: .topics)
        relatedKeyID = try container.decodeIfPresent(String.self, forKey: .relatedKeyID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keyID, forKey: .keyID)
        try container.encode(teamID, forKey: .teamID)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(topics.map { $0.sorted() }, forKey: .topics)
        try container.encodeIfPresent(relatedKeyID, forKey: .relatedKeyID)
        try container.encode(publicKeyPEM, forKey: .publicKeyPEM)
    }

    public static func == (lhs: TrustedKey, rhs: TrustedKey) -> Bool {
        lhs.keyID == rhs.keyID && lhs.teamID == rhs.teamID && lhs.environment == rhs.environment
            && lhs.topics == rhs.topics && lhs.relatedKeyID == rhs.relatedKeyID && lhs.publicKeyPEM == rhs.publicKeyPEM
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyID)
        hasher.combine(teamID)
        hasher.combine(publicKeyPEM)
    }
}
