import Foundation

/// Secrets every instance on one database must share (the key that signs app tokens), created once.
package protocol ServerSecretStore: Sendable {
    /// The secret stored under `name`. When none is stored yet, stores `candidate` first; of concurrent
    /// first calls (from several processes too) exactly one candidate wins and all of them get it.
    func serverSecret(named name: String, candidate: Data, at: Date) async throws(PushStoreError) -> Data
}
