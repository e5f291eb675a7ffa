import APNsCore
import Foundation
import LiveActivity
import Synchronization
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

    /// Many single updates at once, two to each activity, and one refused: each caller gets its own
    /// outcome (its push, and what its push replaced), the refused one fails alone.
    @Test(arguments: StoreKind.available)
    func acceptancesAtOnceAnswerEachCallerWithItsOwnOutcome(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let activities = (0..<20).map { "ride-\($0)" }
            for id in activities { _ = try await store.register(Fixture.registration(id)) }
            let used = Fixture.update("ride-0", at: t - 5)
            _ = try await store.enqueue([used])
            _ = try await store.claim(owner: "w", limit: 1, now: t, lease: 30)
            try await store.complete(DeliveryResult(pushID: used.pushID, outcome: .accepted, attempts: 1), owner: "w", at: t)
            let updates = activities.flatMap { id in (1...2).map { (id: id, score: $0, push: Fixture.update(id, score: $0, at: t)) } }
            let answers = await withTaskGroup(of: (UUID, Result<AcceptanceOutcome, PushStoreError>).self) { group in
                for update in updates + [(id: "ride-1", score: 3, push: Fixture.update("ride-1", score: 3, at: t, pushID: used.pushID))] {
                    group.addTask {
                        let acceptance = Acceptance(
                            at: t,
                            stateChanges: [
                                .init(
                                    activityID: update.id, timestamp: t + Double(update.score), contentState: ["score": .number(Double(update.score))]
                                )
                            ]
                        ) { _ in [update.push] }
                        do throws(PushStoreError) {
                            return (update.push.pushID, .success(try await store.accept(acceptance)))
                        } catch {
                            return (update.push.pushID, .failure(error))
                        }
                    }
                }
                var answers = [(UUID, Result<AcceptanceOutcome, PushStoreError>)]()
                for await answer in group { answers.append(answer) }
                return answers
            }
            #expect(answers.count == 41)
            var replaced = [UUID: UUID]()
            for (pushID, answer) in answers {
                switch answer {
                case .failure(let error):
                    #expect(pushID == used.pushID, "only the push id used before is refused: \(error)")
                    if case .conflict = error {} else { Issue.record("refused as a conflict, not \(error)") }
                case .success(let outcome):
                    #expect(outcome.enqueued.accepted == [pushID], "each caller is answered with its own push")
                    for coalesced in outcome.enqueued.coalesced {
                        #expect(coalesced.by == pushID, "a caller learns what its own push replaced")
                        replaced[coalesced.replaced] = coalesced.by
                    }
                }
            }
            // Of an activity's two routine updates, one that found the other pending replaced it: on SQLite's
            // one writer, always; on PostgreSQL, when the other had committed before it read the outbox.
            if kind == .sqlite { #expect(replaced.count == activities.count) }
            #expect(try await store.outboxDepth() == updates.count - replaced.count)
            for (old, new) in replaced {
                let activity = try #require(updates.first { $0.push.pushID == old }?.id)
                #expect(updates.first { $0.push.pushID == new }?.id == activity, "a push replaces one of its own activity")
            }
        }
    }

    /// The batch endpoint's acceptance: many activities, each once with a state of its own. Their states are
    /// one statement (per 500), not one per state; an activity whose stored timestamp is newer keeps its state.
    @Test(arguments: StoreKind.available)
    func manyActivitiesWithAStateEachAreOneStatement(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let sql = try #require(store as? SQLPushStore)
            let t = Fixture.start
            let ids = (0..<40).map { "batch-\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            _ = try await store.recordContentState([(activityID: "batch-7", timestamp: t + 60)], contentState: ["score": -1], acceptedAt: t)
            let acceptance = Acceptance(
                at: t,
                stateChanges: ids.enumerated().map { index, id in
                    .init(activityID: id, timestamp: t + Double(index), contentState: ["score": .number(Double(index))])
                }
            ) { _ in ids.enumerated().map { index, id in Fixture.update(id, score: index, at: t) } }
            let counting = try await sql.backend.transaction(.durable) { session throws(PushStoreError) in
                let counting = CountingSession(session)
                _ = try await SQLPushStore.accept(counting, acceptance, dialect: sql.dialect)
                return counting
            }
            #expect(counting.statements(containing: "last_content_state") == 1, "one statement for the 40 states")
            for (index, id) in ids.enumerated() where id != "batch-7" {
                #expect(try await store.activity(id: id)?.lastContentState == ["score": .number(Double(index))], "\(id)")
            }
            #expect(try await store.activity(id: "batch-7")?.lastContentState == ["score": -1], "a newer stored state is kept")
            #expect(try await store.outboxDepth() == ids.count)
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

/// A session that keeps the text of each statement it runs.
private final class CountingSession: SQLSession {
    let session: any SQLSession
    private let texts = Mutex<[String]>([])

    init(_ session: any SQLSession) { self.session = session }

    var fixedRowCounts: Bool { session.fixedRowCounts }

    func query<T: Sendable>(
        _ sql: String, _ binds: [SQLValue], transform: @escaping @Sendable (SQLRow) throws(PushStoreError) -> T
    ) async throws(PushStoreError) -> [T] {
        texts.withLock { $0.append(sql) }
        return try await session.query(sql, binds, transform: transform)
    }

    /// How many statements run so far contain `text`.
    func statements(containing text: String) -> Int {
        texts.withLock { texts in texts.count { $0.contains(text) } }
    }
}
