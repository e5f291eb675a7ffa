import APNsCore
import Crypto
import Foundation
import Synchronization

/// The provider keys the simulated APNs trusts, by Key ID. Safe to use from any thread; registering a
/// key with a Key ID already present replaces it.
public final class TrustedKeys: Sendable {
    private let keys = Mutex([String: TrustedKey]())

    public init() {}

    /// Why a key could not be registered.
    public enum RegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
        case emptyKeyID
        case emptyTeamID
        case emptyTopics
        case unreadablePEM

        public var description: String {
            switch self {
            case .emptyKeyID:
                return "key id is empty; expected the 10-character Key ID shown in the developer portal"
            case .emptyTeamID:
                return "team id is empty; expected the 10-character Team ID of the key's developer account"
            case .emptyTopics:
                return "topics is an empty list; pass nil for a team-scoped key or at least one bundle id topic"
            case .unreadablePEM:
                return
                    "key is not a P-256 PEM; accepted: a public key (-----BEGIN PUBLIC KEY-----) or a .p8 private key (-----BEGIN PRIVATE KEY-----)"
            }
        }
    }

    /// Trusts a public key. `environment` nil: valid in both environments; `topics` nil: every topic of the
    /// team; `relatedKeyID`: the one other key whose tokens may share a connection with this key's.
    @discardableResult
    public func register(
        keyID: String, teamID: String, publicKey: P256.Signing.PublicKey,
        environment: APNsEnvironment? = nil, topics: Set<String>? = nil, relatedKeyID: String? = nil
    ) -> TrustedKey {
        let key = TrustedKey(
            keyID: keyID, teamID: teamID, publicKey: publicKey, environment: environment, topics: topics, relatedKeyID: relatedKeyID)
        keys.withLock { $0[keyID] = key }
        return key
    }

    /// Trusts a key given as PEM: a public key, or a `.p8` private key (only its public half is kept).
    @discardableResult
    public func register(
        keyID: String, teamID: String, pem: String,
        environment: APNsEnvironment? = nil, topics: Set<String>? = nil, relatedKeyID: String? = nil
    ) throws(RegistrationError) -> TrustedKey {
        guard !keyID.isEmpty else { throw .emptyKeyID }
        guard !teamID.isEmpty else { throw .emptyTeamID }
        if let topics, topics.isEmpty { throw .emptyTopics }
        let publicKey: P256.Signing.PublicKey
        if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            publicKey = key
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            publicKey = key.publicKey
        } else {
            throw .unreadablePEM
        }
        return register(
            keyID: keyID, teamID: teamID, publicKey: publicKey, environment: environment, topics: topics, relatedKeyID: relatedKeyID)
    }

    /// The key with this Key ID, if trusted.
    public func lookup(keyID: String) -> TrustedKey? {
        keys.withLock { $0[keyID] }
    }

    /// Stops trusting a key. Returns false when it was not registered.
    @discardableResult
    public func remove(keyID: String) -> Bool {
        keys.withLock { $0.removeValue(forKey: keyID) != nil }
    }

    /// Every trusted key, ordered by Key ID.
    public func all() -> [TrustedKey] {
        keys.withLock { $0.values.sorted { $0.keyID < $1.keyID } }
    }
}
