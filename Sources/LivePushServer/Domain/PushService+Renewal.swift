import Foundation
import PushStore

/// What renewal needs of the only way into the outbox: the start of a successor, the end of the
/// activity it took over from, and sends by activity id that follow the chain.
extension PushService {
    /// The newest activity of the chain `activity` belongs to: itself unless a renewal linked a
    /// successor to it (followed link by link, at most `maximumLinks`).
    func renewalHead(_ activity: ActivityRecord) async throws(DomainError) -> ActivityRecord {
        var current = activity
        for _ in 0..<Self.maximumLinks where current.state != .active {
            let renewal = try await stored { () async throws(PushStoreError) in try await store.renewal(activityID: current.activityID) }
            guard let next = renewal?.renewedBy,
                let successor = try await stored({ () async throws(PushStoreError) in try await store.activity(id: next) })
            else { break }
            current = successor
        }
        return current
    }

    /// How many renewals a send by an old activity id follows: linking moves every older link to the
    /// newest activity, so one suffices; a few cover a renewal linked while the send reads the chain.
    static let maximumLinks = 4

    /// Starts a renewal's successor on each of the user's devices given (starts the budget reserved).
    func startRenewal(_ content: PushContent, starts: [ReservedStart]) async throws(DomainError) -> SendAcceptance {
        try await acceptStart(content, tokens: starts.map(\.token), skipped: [], pushIDs: ReservedStart.pushIDs(starts))
    }

    /// Ends the activity a successor took over from, with its last state.
    func endRenewed(_ activity: ActivityRecord) async throws(DomainError) -> Bool {
        try await endWithLastState(activity, cause: .renewed)
    }
}
