import Foundation
import PushStore

/// The push-to-start budget per device, decided in one place for every path that sends starts the server
/// chooses on its own or in bulk (renewals, Live Activity resources, audience starts): at most `budget`
/// starts per push-to-start token in `window` seconds, since a device drops starts over its budget without
/// telling anyone. The store checks and records each start in one step (``PushToStartBudget``), so senders
/// racing for one device (two audience pages, a page and a renewal, two server instances) cannot together
/// go over it; every start, a user's own ones included, counts.
struct PushToStartBudgetRule: Sendable {
    /// Starts per push-to-start token in `window`.
    var budget: Int
    /// The window, in seconds.
    var window: TimeInterval

    /// Where the window ending at `now` begins: starts sent since then count.
    func windowStart(at now: Date) -> Date {
        now.addingTimeInterval(-window)
    }

    /// Reserves a start to each of `starts` whose device has room in the window ending at `now`; returns
    /// the push ids granted. A start must then be sent with its push id (by which the store counts it
    /// once), or released.
    func reserve(_ starts: [PushToStartReservation], in store: any PushToStartBudget, now: Date) async throws(PushStoreError) -> Set<UUID> {
        try await store.reservePushToStarts(starts, budget: budget, since: windowStart(at: now), at: now)
    }
}
