import PushStore

/// What the operations endpoints (`/health`, `/metrics`) ask of the server's state, so that the API reads
/// the store through the domain like every other route: a store failure arrives as a `DomainError`.
struct OperationsService: Sendable {
    let store: any PushStore

    /// The pushes waiting in the outbox; reading it also proves the store answers.
    func outboxDepth() async throws(DomainError) -> Int {
        try await stored { () async throws(PushStoreError) in try await store.outboxDepth() }
    }
}
