import Foundation
import PushStore

/// The store's side of checking a bearer credential (`APIKeyChecker` in the API): the stored key a key's
/// hash names, and whether an app token still stands. A store failure arrives as a `DomainError`, so the
/// API never handles the store's own errors.
struct CredentialService: Sendable {
    let store: any APIKeyStore & AppTokenStandingStore

    /// The stored key whose SHA-256 is `hash` (active or revoked), or nil when none is.
    func apiKey(hash: String) async throws(DomainError) -> APIKeyRecord? {
        try await stored { () async throws(PushStoreError) in try await store.apiKey(byHash: hash) }
    }

    /// What revocation says of a token of `subject` minted by the stored key `keyID` (nil: a development key).
    func standing(subject: String, keyID: UUID?) async throws(DomainError) -> AppTokenStanding {
        try await stored { () async throws(PushStoreError) in try await store.appTokenStanding(subject: subject, keyID: keyID) }
    }
}
