import Foundation

/// What an API key may do: `app` keys only register; `backend` keys send and read.
public enum ApiKeyScope: String, Sendable, Hashable, Codable, CaseIterable {
    case app
    case backend
}

/// A stored API key. Only the SHA-256 of the key is kept (64 lowercase hex digits).
public struct ApiKeyRecord: Sendable, Hashable, Codable {
    public var id: UUID
    public var name: String
    public var scope: ApiKeyScope
    public var sha256Hash: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: UUID, name: String, scope: ApiKeyScope, sha256Hash: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.name = name
        self.scope = scope
        self.sha256Hash = sha256Hash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// False once revoked.
    public var isActive: Bool { revokedAt == nil }
}
