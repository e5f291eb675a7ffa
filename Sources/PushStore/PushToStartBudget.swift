import Foundation

/// One start the push-to-start budget is asked for: to the device of `tokenID`, sent with `pushID`.
package struct PushToStartReservation: Sendable, Hashable {
    package var tokenID: UUID
    package var pushID: UUID

    package init(tokenID: UUID, pushID: UUID) {
        self.tokenID = tokenID
        self.pushID = pushID
    }
}

/// The push-to-start budget per device: how many starts went to each push-to-start token in a window,
/// checked and recorded in one step, so that concurrent senders (two audience pages, a renewal, a
/// resource's PUT, other server instances) cannot together send more than the budget.
package protocol PushToStartBudget: Sendable {
    /// Check and record in one step, safe across processes (senders to the same token take turns): for
    /// each request, in order, grants it when its push is already counted for the token (a page sent
    /// again after its claim expired), or when fewer than `budget` starts went to the token since `since`,
    /// and then records it. A token's starts are its reservations, its queued starts and its sent ones
    /// (history), each push counted once. Returns the push ids granted; the push ids must be different.
    func reservePushToStarts(_ requests: [PushToStartReservation], budget: Int, since: Date, at: Date) async throws(PushStoreError)
        -> Set<UUID>

    /// Forgets the reservations of starts that were not queued after all (the sender failed before):
    /// their devices' budgets get them back.
    func releasePushToStarts(pushIDs: [UUID]) async throws(PushStoreError)
}
