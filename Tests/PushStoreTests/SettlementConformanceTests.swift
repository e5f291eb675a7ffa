import APNsCore
import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: a worker's batch recorded in one write")
struct SettlementConformanceTests {
    @Test(arguments: StoreKind.available)
    func outcomesRetriesAndRefusedTokensAreRecordedTogether(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let dead = Fixture.token()
            _ = try await store.register(Fixture.registration("a"))
            _ = try await store.register(Fixture.registration("b", token: dead))
            // The same token value stored as a push-to-start token: APNs refused the value, wherever it is.
            _ = try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "user-1", device: "phone", token: dead, at: t - 60))
            let done = Fixture.update("a", importance: .timeSensitive, at: t - 3)
            let again = Fixture.update("a", score: 2, importance: .timeSensitive, at: t - 2)
            let refused = Fixture.update("b", importance: .timeSensitive, at: t - 1)
            let stolen = Fixture.update("a", score: 3, importance: .timeSensitive, at: t - 0.5)
            _ = try await store.enqueue([done, again, refused, stolen])
            let claimed = try await store.claim(owner: "w1", limit: 3, now: t, lease: 1)
            #expect(Set(claimed.map(\.pushID)) == [done.pushID, again.pushID, refused.pushID])
            // `stolen` is claimed by w2; w1 reports a retry of it all the same (its lease ended).
            _ = try await store.claim(owner: "w2", limit: 1, now: t, lease: 30)
            var retry = again
            retry.attempts = 1
            retry.nextAttemptAt = t + 30
            retry.lastError = "503 ServiceUnavailable"
            var lost = stolen
            lost.attempts = 1
            lost.lastError = "interrupted by shutdown"
            let report = try await store.settle(
                owner: "w1",
                OutboxSettlement(
                    results: [
                        DeliveryResult(pushID: done.pushID, outcome: .accepted, sentAt: t, status: 200, attempts: 1),
                        DeliveryResult(pushID: refused.pushID, outcome: .rejected, sentAt: t, status: 410, reason: "Unregistered", attempts: 1),
                    ],
                    retries: [retry, lost],
                    invalidations: [TokenInvalidation(token: dead, reason: "Unregistered", at: t)]),
                at: t + 1, journal: nil)
            #expect(report.completion.records.map(\.pushID) == [done.pushID, refused.pushID])
            #expect(report.retriesNotHeld == [stolen.pushID], "a retry another worker holds is left alone")
            #expect(report.invalidated.activities.map(\.activityID) == ["b"])
            #expect(report.invalidated.pushToStartTokens.map(\.deviceID) == ["phone"])
            #expect(try await store.activity(id: "b")?.tokenState.invalidReason == "Unregistered")
            #expect(try await store.activity(id: "a")?.tokenState.isValid == true)
            let pending = try await store.pendingItems(activityID: "a")
            let rescheduled = try #require(pending.first { $0.pushID == again.pushID })
            #expect(rescheduled.attempts == 1 && rescheduled.nextAttemptAt == t + 30 && rescheduled.claim == nil)
            #expect(rescheduled.lastError == "503 ServiceUnavailable")
            #expect(pending.first { $0.pushID == stolen.pushID }?.claim?.owner == "w2")
            #expect(try await store.outboxDepth() == 2)
        }
    }

    /// With the pushes as the worker claimed them, their records are made from those (the rows are removed
    /// without being read back), and a push another worker holds is still left alone; without them, a
    /// record is made from its row.
    @Test(arguments: StoreKind.available)
    func recordsAreMadeFromTheClaimedPushes(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let (given, notGiven, stolen) = (
                Fixture.update("a", importance: .timeSensitive, at: t - 3), Fixture.update("b", importance: .timeSensitive, at: t - 2),
                Fixture.update("c", importance: .timeSensitive, at: t - 1)
            )
            _ = try await store.enqueue([given, notGiven, stolen])
            let claimed = try await store.claim(owner: "w1", limit: 2, now: t, lease: 30)
            #expect(claimed.map(\.pushID) == [given.pushID, notGiven.pushID])
            _ = try await store.claim(owner: "w2", limit: 1, now: t, lease: 30)
            // A mark the stored row does not have: the record shows which of the two it was made from.
            var asClaimed = try #require(claimed.first)
            asClaimed.downgradeReason = "as claimed"
            var stolenAsClaimed = stolen
            stolenAsClaimed.claim = OutboxClaim(owner: "w1", until: t + 30)
            func accepted(_ item: OutboxItem) -> DeliveryResult {
                DeliveryResult(pushID: item.pushID, outcome: .accepted, sentAt: t, status: 200, attempts: 1)
            }
            let report = try await store.settle(
                owner: "w1", OutboxSettlement(results: [accepted(given), accepted(stolen)], claimed: [asClaimed, stolenAsClaimed]), at: t + 1,
                journal: nil)
            #expect(report.completion.records.map(\.pushID) == [given.pushID])
            #expect(report.completion.notHeld == [stolen.pushID], "another worker's push is left alone")
            #expect(report.completion.records.first?.downgradeReason == "as claimed")
            #expect(try await store.deliveries(activityID: "a", limit: 5).first?.downgradeReason == "as claimed")
            let fromRow = try await store.settle(owner: "w1", OutboxSettlement(results: [accepted(notGiven)]), at: t + 2, journal: nil)
            #expect(fromRow.completion.records == [DeliveryRecord(notGiven, accepted(notGiven), recordedAt: t + 2)])
            #expect(try await store.outboxDepth() == 1)
            #expect(try await store.pendingItems(activityID: "c").first?.claim?.owner == "w2")
        }
    }
}
