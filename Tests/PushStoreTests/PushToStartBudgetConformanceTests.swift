import Foundation
import Testing

@testable import PushStore

/// The push-to-start budget on both stores: a token's starts in the window (reserved, queued or sent) are
/// counted once per push, and a start is granted and recorded in one step, so senders racing for one
/// device never go over the budget together.
@Suite("PushStore conformance: push-to-start budget")
struct PushToStartBudgetConformanceTests {
    static func start(to tokenID: UUID, at: Date) -> OutboxItem {
        OutboxItem(
            target: .pushToStartToken(id: tokenID), kind: .start, payload: Data(#"{"aps":{"event":"start"}}"#.utf8), priority: .immediate,
            requestedPriority: .immediate, importance: .timeSensitive, expiration: at + 3600, acceptedAt: at)
    }

    @Test(arguments: StoreKind.available)
    func startsAreCountedOncePerPushWithinTheWindow(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let one = try await AudienceStartConformanceTests.token(store, user: "one").id
            let two = try await AudienceStartConformanceTests.token(store, user: "two").id
            // Queued starts count within the window: two to `one`, and one to `two` from before it.
            let queued = [Self.start(to: one, at: t), Self.start(to: one, at: t + 600), Self.start(to: two, at: t - 7200)]
            _ = try await store.enqueue(queued)
            let now = t + 700
            let since = now - 3600
            let (p1, p2, p3) = (UUID(), UUID(), UUID())
            let first = try await store.reservePushToStarts(
                [PushToStartReservation(tokenID: one, pushID: p1), PushToStartReservation(tokenID: one, pushID: p2)], budget: 3, since: since,
                at: now)
            #expect(first == [p1], "two queued and one reserved make three")
            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: one, pushID: p1)], budget: 3, since: since, at: now + 1)
                    == [p1], "a push already counted is granted again (a page sent again), not counted twice")
            #expect(
                try await store.reservePushToStarts(
                    [PushToStartReservation(tokenID: one, pushID: queued[0].pushID)], budget: 3, since: since, at: now)
                    == [queued[0].pushID], "a queued push is the same start")
            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: two, pushID: p3)], budget: 1, since: since, at: now) == [p3],
                "the start to `two` before the window does not count")

            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: one, pushID: p2)], budget: 3, since: since, at: now + 2)
                    .isEmpty, "the reservation counts for later senders")
            try await store.releasePushToStarts(pushIDs: [p1])
            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: one, pushID: p2)], budget: 3, since: since, at: now) == [p2],
                "a released start gives its room back")
            // Over an hour after the queued starts and the reservations, the window is empty again.
            let later = now + 3601
            let fresh = [UUID(), UUID(), UUID()]
            #expect(
                try await store.reservePushToStarts(
                    fresh.map { PushToStartReservation(tokenID: two, pushID: $0) }, budget: 2, since: later - 3600, at: later) == Set(fresh.prefix(2))
            )

            #expect(try await store.reservePushToStarts([], budget: 1, since: since, at: now).isEmpty)
            let negative = await caught {
                try await store.reservePushToStarts([PushToStartReservation(tokenID: one, pushID: UUID())], budget: -1, since: since, at: now)
            }
            #expect(negative?.invalidField == "budget")
            let twice = await caught {
                try await store.reservePushToStarts(
                    [PushToStartReservation(tokenID: one, pushID: p3), PushToStartReservation(tokenID: two, pushID: p3)], budget: 5, since: since,
                    at: now)
            }
            #expect(twice?.invalidField == "pushId")
        }
    }

    /// Eight senders on two store instances (two server processes) ask for starts to the same devices at
    /// once: each device is granted its budget, no more.
    @Test(arguments: StoreKind.available)
    func concurrentSendersNeverGoOverTheBudget(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let t = Fixture.start
            var tokens: [UUID] = []
            for user in ["a", "b", "c"] { tokens.append(try await AudienceStartConformanceTests.token(store, user: user).id) }
            let budget = 3
            let granted: [UUID] = try await withReopened(harness) { second in
                let stores: [any PushStore] = [store, second]
                return try await withThrowingTaskGroup(of: [UUID].self) { group in
                    for sender in 0..<8 {
                        let senderStore = stores[sender % 2]
                        let order = sender % 2 == 0 ? tokens : tokens.reversed()
                        group.addTask {
                            var mine: [UUID] = []
                            for _ in 0..<2 {
                                let asked = order.map { PushToStartReservation(tokenID: $0, pushID: UUID()) }
                                let won = try await senderStore.reservePushToStarts(asked, budget: budget, since: t - 3600, at: t)
                                mine += asked.filter { won.contains($0.pushID) }.map(\.tokenID)
                            }
                            return mine
                        }
                    }
                    var all: [UUID] = []
                    for try await mine in group { all += mine }
                    return all
                }
            }
            for token in tokens {
                #expect(granted.count { $0 == token } == budget, "each device gets its budget of starts, no more")
            }
        }
    }

    /// A device's token released (the user signs out) takes its reservations with it.
    @Test(arguments: StoreKind.available)
    func releasingATokenForgetsItsReservations(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let token = try await AudienceStartConformanceTests.token(store, user: "a").id
            let push = UUID()
            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: token, pushID: push)], budget: 1, since: t - 3600, at: t)
                    == [push])
            #expect(try await store.releasePushToStartTokens(userID: "a", deviceID: nil) == 1)
            #expect(
                try await store.reservePushToStarts([PushToStartReservation(tokenID: token, pushID: UUID())], budget: 1, since: t - 3600, at: t)
                    .count == 1, "the released token's reservation is gone")
        }
    }
}
