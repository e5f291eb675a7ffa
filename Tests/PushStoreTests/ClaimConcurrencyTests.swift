import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: concurrent claimers")
struct ClaimConcurrencyTests {
    /// Four claim loops on two store instances (two "servers") drain 2,000 items, two completing one
    /// by one and two in batches: each item is delivered exactly once.
    @Test(arguments: StoreKind.available)
    func everyItemIsClaimedExactlyOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let items = (0..<2000).map { index in
                Fixture.update("activity-\(index % 400)", score: index, importance: .timeSensitive)
            }
            let result = try await store.enqueue(items)
            #expect(result.accepted.count == 2000)
            #expect(try await store.outboxDepth() == 2000)

            let delivered: [[UUID]] = try await withReopened(harness) { second in
                let stores: [any PushStore] = [store, second]
                return try await withThrowingTaskGroup(of: [UUID].self) { group in
                    for worker in 0..<4 {
                        let workerStore = stores[worker % 2]
                        group.addTask {
                            var mine = [UUID]()
                            let owner = "worker-\(worker)"
                            while true {
                                let batch = try await workerStore.claim(
                                    owner: owner, limit: 25, now: Fixture.start + 1, lease: 600)
                                if batch.isEmpty { break }
                                if worker < 2 {
                                    for item in batch {
                                        try await workerStore.complete(
                                            DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1),
                                            owner: owner, at: Fixture.start + 2)
                                        mine.append(item.pushID)
                                    }
                                } else {
                                    let report = try await workerStore.complete(
                                        owner: owner,
                                        results: batch.map {
                                            DeliveryResult(pushID: $0.pushID, outcome: .accepted, attempts: 1)
                                        },
                                        at: Fixture.start + 2)
                                    #expect(report.notHeld.isEmpty)
                                    mine += report.records.map(\.pushID)
                                }
                            }
                            return mine
                        }
                    }
                    var all = [[UUID]]()
                    for try await mine in group { all.append(mine) }
                    return all
                }
            }

            let flat = delivered.flatMap { $0 }
            #expect(flat.count == 2000, "no item was handed out twice")
            #expect(Set(flat) == Set(items.map(\.pushID)), "no item was skipped")
            #expect(try await store.outboxDepth() == 0)
            #expect(delivered.filter { !$0.isEmpty }.count >= 2, "the work was shared")
        }
    }
}
