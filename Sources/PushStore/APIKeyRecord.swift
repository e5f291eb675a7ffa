import Foundation

/// What an API key may do: `app` keys only register; `backend` keys send and read; `operator` keys read
/// the provider console's routes and send its test push, nothing else.
package enum APIKeyScope: String, Sendable, Hashable, Codable, CaseIterable {
    case app
    case backend
    case `operator`
}

/// A stored API key. Only the SHA-256 of the key is kept (64 lowercase hex digits).
package struct APIKeyRecord: Sendable, Hashable, Codable {
    package var id: UUID
    package var name: String
    package var scope: APIKeyScope
    package var sha256Hash: String
    package var createdAt: Date
    package var revokedAt: Date?

    /// False once revoked.
    package var isActive: Bool { revokedAt == nil }
}
