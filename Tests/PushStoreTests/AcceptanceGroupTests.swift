import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

/// Acceptances that arrive together: on PostgreSQL they share a transaction (``AcceptanceGroups``), on
/// SQLite a commit (``GroupCommitBackend``); either way each is answered with what its own transaction
/// would have given it.
@Suite("PushStore conformance: acceptances that arrive together")
struct AcceptanceGroupTests {
    /// b waits (it shares an activity with a): c, which shares one with b, must not pass it.
    @Test func aLaterAcceptanceNeverPassesAnEarlierOneLeftWaiting() {
        let waiting: [(name: String, activities: Set<String>)] = [
            ("a", ["1"]), ("b", ["1", "2"]), ("c", ["2"]), ("d", ["3"]), ("e", ["4"]),
        ]
        let (group, left) = AcceptanceGroups.split(waiting, maximum: 2, keys: \.activities)
        #expect(group.map(\.name) == ["a", "d"])
        #expect(left.map(\.name) == ["b", "c", "e"], "e is past the maximum")
    }

    @Test(arguments: StoreKind.available)
    func eachIsAnsweredWithItsOwnOutcome(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let ids = (0..<24).map { "g\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            // Some have a routine update waiting, which their new one replaces.
            let waiting = Dictionary(uniqueKeysWithValues: ["g5", "g12", "g20"].map { ($0, Fixture.update($0, at: t - 5)) })
            _ = try await store.enqueue(Array(waiting.values))
            let pushIDs = Dictionary(uniqueKeysWithValues: ids.map { ($0, UUID()) })
            let results = await Self.acceptTogether(store, ids: ids, pushIDs: pushIDs, at: t)
            for (index, id) in ids.enumerated() {
                let outcome = try #require(results[id]).get()
                #expect(outcome.enqueued.accepted == [pushIDs[id]!], "\(id)")
                #expect(outcome.pushes.map(\.pushID) == [pushIDs[id]!], "\(id)")
                let replaced = outcome.enqueued.coalesced.map { [$0.replaced, $0.by] }
                #expect(replaced == (waiting[id].map { [[$0.pushID, pushIDs[id]!]] } ?? []), "\(id)")
                #expect(outcome.pushes.first?.importance == (id == "g2" ? .timeSensitive : .routine), "\(id)")
                #expect(try await store.activity(id: id)?.lastContentState == ["score": .number(Double(index))], "\(id)")
            }
            #expect(try await store.outboxDepth() == ids.count, "every accepted push, and none of those they replaced")
            #expect(try await store.highPriorityCount(activityID: "g2", since: t - 1) == 1)
            if let postgres = store as? PostgresPushStore {
                #expect(postgres.acceptanceGroups.largestGroup > 1, "some acceptances shared a transaction")
            }
        }
    }

    /// One refused acceptance among others that arrive with it refuses itself only.
    @Test(arguments: StoreKind.available)
    func aRefusedOneRefusesOnlyItself(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let ids = (0..<12).map { "r\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            // r7's acceptance reuses a push id the history holds.
            let used = Fixture.update("r0", importance: .timeSensitive, at: t - 5)
            _ = try await store.enqueue([used])
            _ = try await store.claim(owner: "w", limit: 10, now: t, lease: 30)
            try await store.complete(DeliveryResult(pushID: used.pushID, outcome: .accepted, attempts: 1), owner: "w", at: t)
            let pushIDs = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0 == "r7" ? used.pushID : UUID()) })
            let results = await Self.acceptTogether(store, ids: ids, pushIDs: pushIDs, at: t)
            for (index, id) in ids.enumerated() {
                let result = try #require(results[id])
                if id == "r7" {
                    guard case .failure(let error) = result else {
                        Issue.record("r7 reused a push id and was accepted")
                        continue
                    }
                    #expect(error.isConflict)
                    #expect(try await store.activity(id: id)?.lastContentState == nil)
                } else {
                    #expect(try result.get().enqueued.accepted == [pushIDs[id]!], "\(id)")
                    #expect(try await store.activity(id: id)?.lastContentState == ["score": .number(Double(index))], "\(id)")
                }
            }
            #expect(try await store.outboxDepth() == ids.count - 1)
        }
    }

    /// Accepts one update per id at once (the one to g2 asking for priority 10, within a budget of 1);
    /// returns each one's result.
    private static func acceptTogether(_ store: any PushStore, ids: [String], pushIDs: [String: UUID], at t: Date) async
        -> [String: Result<AcceptanceOutcome, PushStoreError>]
    {
        await withTaskGroup(of: (String, Result<AcceptanceOutcome, PushStoreError>).self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask {
                    let acceptance = Acceptance(
                        at: t, budget: id == "g2" ? [(activityID: id, limit: 1)] : [],
                        stateChanges: [.init(activityID: id, timestamp: t, contentState: ["score": .number(Double(index))])]
                    ) { decisions in
                        let granted = decisions[id]?.granted == true
                        return [Fixture.update(id, score: index, importance: granted ? .timeSensitive : .routine, at: t, pushID: pushIDs[id]!)]
                    }
                    do {
                        return (id, .success(try await store.accept(acceptance)))
                    } catch let error as PushStoreError {
                        return (id, .failure(error))
                    } catch {
                        return (id, .failure(.database(detail: "\(error)")))
                    }
                }
            }
            var results = [String: Result<AcceptanceOutcome, PushStoreError>]()
            for await (id, result) in group { results[id] = result }
            return results
        }
    }
}
