import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: a send's acceptance in one transaction")
struct AcceptanceConformanceTests {
    @Test(arguments: StoreKind.available)
    func budgetPushesStatesAndEndsAreStoredTogether(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for id in ["a", "b", "c"] { _ = try await store.register(Fixture.registration(id)) }
            _ = try await store.consumeHighPriority(activityID: "a", at: t - 10, limit: 1)
            let acceptance = Acceptance(
                at: t, budget: [(activityID: "a", limit: 1), (activityID: "b", limit: 1)],
                stateChanges: [
                    .init(activityID: "a", timestamp: t, contentState: ["score": 1]),
                    .init(activityID: "b", timestamp: t, contentState: ["score": 2]),
                    .init(activityID: "c", timestamp: t, contentState: nil),
                ],
                ends: [.init(activityID: "c", dismissalDate: t + 60)]
            ) { decisions in
                ["a", "b", "c"].map { id in
                    let granted = decisions[id]?.granted ?? false
                    return OutboxItem(
                        target: .activity(id: id), kind: id == "c" ? .end : .update, payload: Fixture.payload(1),
                        priority: granted ? .immediate : .conservesPower, requestedPriority: .immediate, importance: .timeSensitive,
                        downgradeReason: granted ? nil : "budget", acceptedAt: t)
                }
            }
            let outcome = try await store.accept(acceptance)
            #expect(outcome.pushes.map(\.priority) == [.conservesPower, .immediate, .conservesPower], "a's budget was spent, b's was not")
            #expect(outcome.enqueued.accepted == outcome.pushes.map(\.pushID))
            #expect(outcome.ended == ["c"])
            #expect(try await store.outboxDepth() == 3)
            #expect(try await store.highPriorityCount(activityID: "b", since: t) == 1)
            #expect(try await store.activity(id: "a")?.lastContentState == ["score": 1])
            #expect(try await store.activity(id: "b")?.lastContentState == ["score": 2])
            let c = try #require(try await store.activity(id: "c"))
            #expect(c.state == .ended && c.dismissalDate == t + 60 && c.lastTimestamp == t)
        }
    }

    @Test(arguments: StoreKind.available)
    func aRefusedAcceptanceChangesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.register(Fixture.registration("a"))
            // A push id the history already holds: the outbox refuses it, and with it the whole acceptance.
            let used = Fixture.update("a", importance: .timeSensitive, at: t - 5)
            _ = try await store.enqueue([used])
            _ = try await store.claim(owner: "w", limit: 1, now: t, lease: 30)
            try await store.complete(DeliveryResult(pushID: used.pushID, outcome: .accepted, attempts: 1), owner: "w", at: t)
            let acceptance = Acceptance(
                at: t, budget: [(activityID: "a", limit: 5)], stateChanges: [.init(activityID: "a", timestamp: t, contentState: ["score": 9])],
                ends: [.init(activityID: "a", dismissalDate: t)]
            ) { _ in [Fixture.update("a", score: 9, at: t, pushID: used.pushID)] }
            let error = await caught { try await store.accept(acceptance) }
            #expect(error?.isConflict == true)
            #expect(try await store.highPriorityCount(activityID: "a", since: t - 3600) == 0, "the budget is not spent")
            let a = try #require(try await store.activity(id: "a"))
            #expect(a.state == .active && a.lastContentState == nil, "neither the state nor the end was recorded")
            #expect(try await store.outboxDepth() == 0)
        }
    }
}
