import APNsCore
import Crypto
import Foundation
import PushStore
import Synchronization

/// The key that signs app tokens, loaded once: the configured secret, else a random one the store keeps
/// (the first instance to start on a database creates it; the others read it), so that a token minted
/// by one instance is accepted by every other and survives restarts.
package final class AppTokenKey: Sendable {
    private let store: any PushStore
    private let configured: Data?
    private let loaded = Mutex<AppTokenCodec?>(nil)

    /// The store's name for the secret.
    static let secretName = "app-token-hs256"

    package init(store: any PushStore, configuredSecret: String?) {
        self.store = store
        configured = configuredSecret.map { Data($0.utf8) }
    }

    /// The codec with the key; throws when the store cannot be read (nothing is cached then).
    package func codec() async throws(PushStoreError) -> AppTokenCodec {
        if let codec = loaded.withLock({ $0 }) { return codec }
        let secret: Data
        if let configured {
            secret = configured
        } else {
            let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            secret = try await store.serverSecret(named: Self.secretName, candidate: candidate, at: Date())
        }
        let codec = AppTokenCodec(secret: secret)
        loaded.withLock { $0 = codec }
        return codec
    }
}
