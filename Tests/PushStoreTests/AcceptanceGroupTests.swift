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
    @Test(arguments: StoreKind.available)
    func eachIsAnsweredWithItsOwnOutcome(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let ids = (0..<24).map { "g\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            // g0 has a routine update waiting, which its new one replaces.
            let waiting = Fixture.update("g0", at: t - 5)
            _ = try await store.enqueue([waiting])
            // g1's acceptance reuses a push id the history holds: refused, and alone.
            let used = Fixture.update("g23", importance: .timeSensitive, at: t - 5)
            _ = try await store.enqueue([used])
            _ = try await store.claim(owner: "w", limit: 10, now: t, lease: 30)
            try await store.complete(DeliveryResult(pushID: used.pushID, outcome: .accepted, attempts: 1), owner: "w", at: t)
            _ = try await store.release(owner: "w")

            let pushIDs = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0 == "g1" ? used.pushID : UUID()) })
            let results = await withTaskGroup(of: (String, Result<AcceptanceOutcome, PushStoreError>).self) { group in
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
            for (index, id) in ids.enumerated() {
                let result = try #require(results[id])
                if id == "g1" {
                    guard case .failure(let error) = result else {
                        Issue.record("g1 reused a push id and was accepted")
                        continue
                    }
                    #expect(error.isConflict)
                    #expect(try await store.activity(id: id)?.lastContentState == nil)
                    continue
                }
                let outcome = try result.get()
                #expect(outcome.enqueued.accepted == [pushIDs[id]!], "\(id)")
                #expect(outcome.pushes.map(\.pushID) == [pushIDs[id]!], "\(id)")
                let replaced = outcome.enqueued.coalesced.map { [$0.replaced, $0.by] }
                #expect(replaced == (id == "g0" ? [[waiting.pushID, pushIDs[id]!]] : []), "\(id)")
                #expect(outcome.pushes.first?.importance == (id == "g2" ? .timeSensitive : .routine), "\(id)")
                #expect(try await store.activity(id: id)?.lastContentState == ["score": .number(Double(index))], "\(id)")
            }
            #expect(try await store.outboxDepth() == ids.count - 1, "every accepted push, and not the one g0's replaced")
            #expect(try await store.highPriorityCount(activityID: "g2", since: t - 1) == 1)
            if let postgres = store as? PostgresPushStore {
                #expect(try #require(postgres.acceptanceGroups).largestGroup > 1, "some acceptances shared a transaction")
            }
        }
    }
}
