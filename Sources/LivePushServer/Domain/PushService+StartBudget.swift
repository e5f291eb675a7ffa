import APNsCore
import Foundation
import PushStore

/// The push-to-start budget per device, shared by every path that starts activities (a user's start,
/// renewal, Live Activity resources; audience starts reserve theirs page by page).
extension PushService {
    /// Reserves a start to each of `tokens` whose device has room in the budget's window; returns those
    /// with the push id each must be sent with (``acceptStart(_:tokens:skipped:pushIDs:)``), or released
    /// with ``releaseStartBudget(_:)`` when the start is not sent after all.
    func reserveStartBudget(_ tokens: [PushToStartTokenRecord], now: Date) async throws(DomainError) -> [ReservedStart] {
        let starts = tokens.map { ReservedStart(token: $0, pushID: .random()) }
        let granted = try await stored { () async throws(PushStoreError) in
            try await settings.pushToStartBudget.reserve(
                starts.map { PushToStartReservation(tokenID: $0.token.id, pushID: $0.pushID) }, in: store, now: now)
        }
        return starts.filter { granted.contains($0.pushID) }
    }

    /// Gives reserved starts that were not queued back to their devices' budgets (best effort: a start
    /// left reserved only costs its device one start of the window).
    func releaseStartBudget(_ starts: [ReservedStart]) async {
        do {
            try await store.releasePushToStarts(pushIDs: starts.map(\.pushID))
        } catch {
            logger.warning("releasing push-to-start reservations failed", metadata: ["count": "\(starts.count)", "error": "\(error)"])
        }
    }
}

/// A start the push-to-start budget let through: its device's token and the push id it is sent with.
struct ReservedStart: Sendable {
    var token: PushToStartTokenRecord
    var pushID: UUID

    /// The push ids of `starts` by token id, as ``PushService/acceptStart(_:tokens:skipped:pushIDs:)`` takes them.
    static func pushIDs(_ starts: [ReservedStart]) -> [UUID: UUID] {
        Dictionary(starts.map { ($0.token.id, $0.pushID) }, uniquingKeysWith: { first, _ in first })
    }
}
