import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: outbox")
struct OutboxConformanceTests {
    @Test(arguments: StoreKind.available)
    func enqueueClaimComplete(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let first = OutboxItem(
                target: .activity(id: "a"), kind: .end, payload: Fixture.payload(1), priority: .conservesPower,
                requestedPriority: .immediate, importance: .timeSensitive, downgradeReason: "budget exhausted",
                collapseKey: "score", expiration: t + 3600, acceptedAt: t)
            let second = Fixture.update("b", score: 2, importance: .timeSensitive, at: t + 1)
            let result = try await store.enqueue([second, first])
            #expect(result.accepted == [second.pushID, first.pushID])
            #expect(result.coalesced.isEmpty)
            #expect(try await store.outboxDepth() == 2)
            #expect(try await store.pendingItems(activityID: "a") == [first])

            #expect(try await store.claim(owner: "w1", limit: 10, now: t - 1, lease: 30).isEmpty, "nothing is due yet")
            let claimed = try await store.claim(owner: "w1", limit: 10, now: t + 5, lease: 30)
            #expect(claimed.map(\.pushID) == [first.pushID, second.pushID], "oldest first")
            var expected = first
            expected.claim = OutboxClaim(owner: "w1", until: t + 35)
            #expect(claimed.first == expected, "every field survives the round trip")
            #expect(try await store.claim(owner: "w2", limit: 10, now: t + 6, lease: 30).isEmpty, "claimed items are held")

            let wrongOwner = try await store.complete(
                owner: "w2", results: [DeliveryResult(pushID: first.pushID, outcome: .accepted, attempts: 1)], at: t + 7)
            #expect(wrongOwner.records.isEmpty && wrongOwner.notHeld == [first.pushID], "another worker's claim")

            let record = try await store.complete(
                DeliveryResult(
                    pushID: first.pushID, outcome: .accepted, sentAt: t + 6,
                    apnsID: "6E1B4A5C-AB4B-4F51-9B39-3B62F8E8A1D2", status: 200, attempts: 1),
                owner: "w1", at: t + 7)
            #expect(record.pushID == first.pushID)
            #expect(record.activityID == "a")
            #expect(record.kind == .end)
            #expect(record.priority == .conservesPower && record.requestedPriority == .immediate)
            #expect(record.downgradeReason == "budget exhausted")
            #expect(record.outcome == .accepted)
            #expect(record.sentAt == t + 6 && record.status == 200 && record.attempts == 1)
            #expect(try await store.deliveries(activityID: "a", limit: 10) == [record])
            #expect(try await store.outboxDepth() == 1)

            let gone = try await store.complete(
                owner: "w1", results: [DeliveryResult(pushID: first.pushID, outcome: .accepted, attempts: 1)], at: t + 8)
            #expect(gone.records.isEmpty && gone.notHeld == [first.pushID], "a completed push is gone")
        }
    }

    @Test(arguments: StoreKind.available)
    func deliveriesAreNewestFirstAndLimited(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let items = (0..<5).map {
                Fixture.update("a", score: $0, importance: .timeSensitive, at: Fixture.start + Double($0))
            }
            _ = try await store.enqueue(items)
            for item in try await store.claim(owner: "w", limit: 10, now: Fixture.start + 10, lease: 60) {
                try await store.complete(
                    DeliveryResult(pushID: item.pushID, outcome: .rejected, status: 400, reason: "BadDeviceToken", attempts: 1),
                    owner: "w", at: Fixture.start + 11)
            }
            let history = try await store.deliveries(activityID: "a", limit: 3)
            #expect(history.map(\.pushID) == items.reversed().prefix(3).map(\.pushID))
            #expect(history.allSatisfy { $0.reason == "BadDeviceToken" && $0.outcome == .rejected })
        }
    }

    @Test(arguments: StoreKind.available)
    func retryAndRelease(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let a = Fixture.update("a", importance: .timeSensitive, at: t - 2)
            let b = Fixture.update("b", importance: .timeSensitive, at: t - 1)
            _ = try await store.enqueue([a, b])
            #expect(try await store.claim(owner: "w1", limit: 1, now: t, lease: 60).map(\.pushID) == [a.pushID])
            #expect(try await store.claim(owner: "w2", limit: 1, now: t, lease: 60).map(\.pushID) == [b.pushID])

            _ = try await store.settle(
                owner: "w1", OutboxSettlement(retries: [a.retry(attempts: 1, at: t + 20, lastError: "503 ServiceUnavailable")]), at: t, journal: nil)
            let pending = try #require(try await store.pendingItems(activityID: "a").first)
            #expect(pending.claim == nil)
            #expect(pending.attempts == 1)
            #expect(pending.nextAttemptAt == t + 20)
            #expect(pending.lastError == "503 ServiceUnavailable")
            #expect(try await store.claim(owner: "w3", limit: 10, now: t + 19, lease: 60).isEmpty)
            #expect(try await store.claim(owner: "w3", limit: 10, now: t + 20, lease: 60).map(\.pushID) == [a.pushID])

            let notHeld = try await store.settle(
                owner: "w1", OutboxSettlement(retries: [b.retry(attempts: 1, at: t, lastError: "x")]), at: t, journal: nil)
            #expect(notHeld.retriesNotHeld == [b.pushID], "w2 holds it: left as it is")

            #expect(try await store.release(owner: "w2") == 1)
            #expect(try await store.release(owner: "w2") == 0)
            #expect(try await store.claim(owner: "w4", limit: 10, now: t + 21, lease: 60).map(\.pushID) == [b.pushID])
            #expect(try await store.outboxDepth() == 2)
        }
    }

    /// A worker still sending its batch renews its claims: nothing is handed out when the first lease
    /// would have ended; only the holder's claims are renewed.
    @Test(arguments: StoreKind.available)
    func renewedClaimsOutlastTheirFirstLease(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let items = [Fixture.update("a", importance: .timeSensitive), Fixture.update("b", importance: .timeSensitive)]
            _ = try await store.enqueue(items)
            let claimed = try await store.claim(owner: "slow", limit: 10, now: t, lease: 30)
            #expect(claimed.count == 2)
            #expect(try await store.renewClaims(owner: "slow", pushIDs: items.map(\.pushID) + [UUID()], until: t + 50) == 2)
            #expect(try await store.renewClaims(owner: "thief", pushIDs: items.map(\.pushID), until: t + 90) == 0)
            #expect(try await store.renewClaims(owner: "slow", pushIDs: [], until: t + 90) == 0)
            #expect(try await store.claim(owner: "other", limit: 10, now: t + 31, lease: 30).isEmpty, "renewed past the first lease")
            let taken = try await store.claim(owner: "other", limit: 10, now: t + 50, lease: 30)
            #expect(Set(taken.map(\.pushID)) == Set(items.map(\.pushID)), "the renewed lease ended")
            #expect(try await store.renewClaims(owner: "slow", pushIDs: items.map(\.pushID), until: t + 100) == 0, "taken over")
        }
    }

    @Test(arguments: StoreKind.available)
    func anExpiredLeaseCanBeClaimedAgain(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let t = Fixture.start
            let item = Fixture.update("a", importance: .timeSensitive)
            _ = try await store.enqueue([item])
            #expect(try await store.claim(owner: "crashed", limit: 10, now: t, lease: 30).count == 1)
            // Another instance (a second store on the same database) takes it once the lease is over.
            try await withReopened(harness) { other in
                #expect(try await other.claim(owner: "survivor", limit: 10, now: t + 29, lease: 30).isEmpty)
                let again = try await other.claim(owner: "survivor", limit: 10, now: t + 30, lease: 30)
                #expect(again.map(\.pushID) == [item.pushID])
                #expect(again.first?.claim == OutboxClaim(owner: "survivor", until: t + 60))
                let late = try await store.complete(
                    owner: "crashed", results: [DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1)],
                    at: t + 31)
                #expect(late.records.isEmpty && late.notHeld == [item.pushID])
                try await other.complete(
                    DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 2), owner: "survivor", at: t + 32)
                #expect(try await store.outboxDepth() == 0)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func routineUpdatesCoalesce(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let u1 = Fixture.update("a", score: 1, at: t)
            let urgent = Fixture.update("a", score: 2, importance: .timeSensitive, at: t + 1)
            let end = OutboxItem(
                target: .activity(id: "a"), kind: .end, payload: Fixture.payload(9), priority: .immediate,
                importance: .routine, acceptedAt: t + 1)
            let other = Fixture.update("b", score: 1, at: t + 1)
            _ = try await store.enqueue([u1, urgent, end, other])

            let u2 = Fixture.update("a", score: 3, at: t + 2)
            let result = try await store.enqueue([u2])
            #expect(result.accepted == [u2.pushID])
            #expect(result.coalesced == [CoalescedPush(replaced: u1.pushID, by: u2.pushID)])
            #expect(result.coalescedCount == 1)
            #expect(Set(try await store.pendingItems(activityID: "a").map(\.pushID)) == [urgent.pushID, end.pushID, u2.pushID])
            #expect(try await store.pendingItems(activityID: "b").map(\.pushID) == [other.pushID])

            let history = try await store.deliveries(activityID: "a", limit: 10)
            #expect(history.count == 1)
            #expect(history.first?.pushID == u1.pushID)
            #expect(history.first?.outcome == .coalesced)
            #expect(history.first?.coalescedInto == u2.pushID)
            #expect(history.first?.sentAt == nil)
        }
    }

    /// A routine broadcast still waiting is replaced by a newer one to the same channel, as an update
    /// to an activity is; other channels, other importances, ends and an activity whose id happens to
    /// read like the channel's are left alone.
    @Test(arguments: StoreKind.available)
    func routineBroadcastsToAChannelCoalesce(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let match = UUID()
            let otherMatch = UUID()
            func broadcast(_ channel: UUID, _ score: Int, kind event: LiveActivityEvent = .update, importance: PushImportance = .routine, at: Date)
                -> OutboxItem
            {
                OutboxItem(
                    target: .channel(id: channel), kind: event, payload: Fixture.payload(score), priority: .conservesPower,
                    importance: importance, acceptedAt: at)
            }
            let b1 = broadcast(match, 1, at: t)
            let urgent = broadcast(match, 2, importance: .timeSensitive, at: t + 1)
            let end = broadcast(match, 9, kind: .end, at: t + 1)
            let elsewhere = broadcast(otherMatch, 1, at: t + 1)
            let lookalike = Fixture.update(match.uuidString.lowercased(), score: 1, at: t + 1)
            _ = try await store.enqueue([b1, urgent, end, elsewhere, lookalike])

            let b2 = broadcast(match, 3, at: t + 2)
            let result = try await store.enqueue([b2])
            #expect(result.coalesced == [CoalescedPush(replaced: b1.pushID, by: b2.pushID)])
            #expect(try await store.outboxDepth() == 5, "urgent, end, the other channel's, the activity's and the newest")
            let history = try await store.deliveries(channelID: match, limit: 10)
            #expect(
                history.count == 1 && history.first?.pushID == b1.pushID && history.first?.outcome == .coalesced
                    && history.first?.coalescedInto == b2.pushID, "\(history)")
            #expect(try await store.deliveries(channelID: otherMatch, limit: 10).isEmpty)
            #expect(try await store.pendingItems(activityID: match.uuidString.lowercased()).map(\.pushID) == [lookalike.pushID])

            // Within one batch too: the newest of three stays.
            let c1 = broadcast(otherMatch, 4, at: t + 3)
            let c2 = broadcast(otherMatch, 5, at: t + 4)
            let batch = try await store.enqueue([c1, c2])
            #expect(
                Set(batch.coalesced) == [
                    CoalescedPush(replaced: c1.pushID, by: c2.pushID),
                    CoalescedPush(replaced: elsewhere.pushID, by: c2.pushID),
                ])
        }
    }

    @Test(arguments: StoreKind.available)
    func coalescingWithinOneBatchKeepsTheNewest(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let a1 = Fixture.update("a", score: 1)
            let a2 = Fixture.update("a", score: 2)
            let b1 = Fixture.update("b", score: 1)
            let a3 = Fixture.update("a", score: 3)
            let result = try await store.enqueue([a1, a2, b1, a3])
            #expect(result.accepted == [a1.pushID, a2.pushID, b1.pushID, a3.pushID])
            #expect(
                Set(result.coalesced) == [
                    CoalescedPush(replaced: a1.pushID, by: a3.pushID), CoalescedPush(replaced: a2.pushID, by: a3.pushID),
                ])
            #expect(try await store.pendingItems(activityID: "a").map(\.payload) == [Fixture.payload(3)])
            #expect(try await store.outboxDepth() == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func claimedOrRetryingUpdatesAreHandledCorrectly(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let inFlight = Fixture.update("a", score: 1, at: t)
            _ = try await store.enqueue([inFlight])
            _ = try await store.claim(owner: "w", limit: 10, now: t, lease: 60)
            // A claimed item may be on the wire: a new update does not replace it.
            let next = Fixture.update("a", score: 2, at: t + 1)
            #expect(try await store.enqueue([next]).coalesced.isEmpty)
            #expect(try await store.outboxDepth() == 2)

            // An update waiting for a retry is replaced; the newer one keeps its backoff and attempts.
            _ = try await store.settle(
                owner: "w", OutboxSettlement(retries: [inFlight.retry(attempts: 3, at: t + 100, lastError: "429")]), at: t + 1, journal: nil)
            let claimed = try #require(try await store.claim(owner: "w", limit: 10, now: t + 2, lease: 60).first)
            try await store.complete(
                DeliveryResult(pushID: claimed.pushID, outcome: .accepted, attempts: 1), owner: "w", at: t + 3)
            let newest = Fixture.update("a", score: 3, at: t + 4)
            let result = try await store.enqueue([newest])
            #expect(result.coalesced == [CoalescedPush(replaced: inFlight.pushID, by: newest.pushID)])
            let pending = try await store.pendingItems(activityID: "a")
            #expect(pending.map(\.pushID) == [newest.pushID])
            #expect(pending.first?.attempts == 3)
            #expect(pending.first?.nextAttemptAt == t + 100)
        }
    }

    @Test(arguments: StoreKind.available)
    func aFailingBatchChangesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let x = Fixture.update("x", score: 1)
            let y = Fixture.update("y", score: 1, importance: .timeSensitive)
            _ = try await store.enqueue([x, y])

            // Fails in the database, half way: a push id already in the outbox.
            let newerX = Fixture.update("x", score: 2)
            let z = Fixture.update("z", score: 1)
            let duplicate = Fixture.update("w", score: 1, importance: .timeSensitive, pushID: y.pushID)
            let failure = await caught { try await store.enqueue([newerX, z, duplicate]) }
            #expect(failure?.isConflict == true)
            #expect(try await store.outboxDepth() == 2)
            #expect(try await store.pendingItems(activityID: "x").map(\.pushID) == [x.pushID], "the coalescing was rolled back")
            #expect(try await store.pendingItems(activityID: "z").isEmpty)
            #expect(try await store.deliveries(activityID: "x", limit: 10).isEmpty)

            // Fails validation: the field is named.
            var bad = Fixture.update("z", score: 1)
            bad.priority = .low
            let invalid = await caught { try await store.enqueue([z, Fixture.update("q"), bad]) }
            #expect(invalid?.invalidField == "items[2].priority")
            let wrongTarget = OutboxItem(
                target: .activity(id: "a"), kind: .start, payload: Fixture.payload(1), priority: .immediate,
                importance: .timeSensitive, acceptedAt: Fixture.start)
            #expect(await caught { try await store.enqueue([wrongTarget]) }?.invalidField == "items[0].target")
            let notJSON = OutboxItem(
                target: .activity(id: "a"), kind: .update, payload: Data("[1]".utf8), priority: .immediate,
                importance: .timeSensitive, acceptedAt: Fixture.start)
            #expect(await caught { try await store.enqueue([notJSON]) }?.invalidField == "items[0].payload")
            #expect(await caught { try await store.enqueue([z, z]) }?.invalidField == "items[1].pushId")
            #expect(try await store.outboxDepth() == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func aDeliveredPushIDCannotBeEnqueuedAgain(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let item = Fixture.update("a", importance: .timeSensitive)
            _ = try await store.enqueue([item])
            _ = try await store.claim(owner: "w", limit: 1, now: Fixture.start, lease: 10)
            try await store.complete(
                DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1), owner: "w", at: Fixture.start)
            #expect(await caught { try await store.enqueue([item]) }?.isConflict == true)
            #expect(try await store.outboxDepth() == 0)
        }
    }

    @Test(arguments: StoreKind.available)
    func startPushesTargetPushToStartTokens(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let tokenID = UUID()
            let start = OutboxItem(
                target: .pushToStartToken(id: tokenID), kind: .start, payload: Fixture.payload(0), priority: .immediate,
                importance: .timeSensitive, acceptedAt: Fixture.start)
            _ = try await store.enqueue([start])
            let claimed = try await store.claim(owner: "w", limit: 5, now: Fixture.start, lease: 5)
            #expect(claimed.first?.target == .pushToStartToken(id: tokenID))
            let record = try await store.complete(
                DeliveryResult(pushID: start.pushID, outcome: .failed, reason: "no valid token", attempts: 0), owner: "w",
                at: Fixture.start)
            #expect(record.activityID == nil)
            #expect(record.target == .pushToStartToken(id: tokenID))
        }
    }

    @Test(arguments: StoreKind.available)
    func claimAndCompleteRejectBadInput(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(await caught { try await store.claim(owner: "w", limit: 0, now: Fixture.start, lease: 5) }?.invalidField == "limit")
            #expect(await caught { try await store.claim(owner: "w", limit: 1, now: Fixture.start, lease: 0) }?.invalidField == "lease")
            #expect(await caught { try await store.claim(owner: "", limit: 1, now: Fixture.start, lease: 5) }?.invalidField == "owner")
            let coalesced = await caught {
                try await store.complete(
                    owner: "w", results: [DeliveryResult(pushID: UUID(), outcome: .coalesced, attempts: 0)], at: Fixture.start)
            }
            #expect(coalesced?.invalidField == "results[0].outcome")
            let status = await caught {
                try await store.complete(
                    owner: "w", results: [DeliveryResult(pushID: UUID(), outcome: .rejected, status: 42, attempts: 1)],
                    at: Fixture.start)
            }
            #expect(status?.invalidField == "results[0].status")
        }
    }
}

@Suite("PushStore conformance: batch completion")
struct BatchCompletionTests {
    @Test(arguments: StoreKind.available)
    func completesWhatTheWorkerHoldsAndReportsTheRest(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let items = (0..<5).map { Fixture.update("a-\($0)", importance: .timeSensitive, at: t + Double($0)) }
            _ = try await store.enqueue(items)
            let mine = try await store.claim(owner: "w1", limit: 3, now: t + 10, lease: 30)
            #expect(mine.map(\.pushID) == items.prefix(3).map(\.pushID))
            let theirs = try await store.claim(owner: "w2", limit: 1, now: t + 10, lease: 30)
            let unknown = UUID()
            let results =
                mine.map {
                    DeliveryResult(
                        pushID: $0.pushID, outcome: .accepted, sentAt: t + 11, apnsID: "id-\($0.pushID)", status: 200,
                        attempts: 1)
                } + [
                    DeliveryResult(pushID: theirs[0].pushID, outcome: .accepted, attempts: 1),
                    DeliveryResult(pushID: unknown, outcome: .accepted, attempts: 1),
                ]
            let report = try await store.complete(owner: "w1", results: results, at: t + 12)
            #expect(report.records.map(\.pushID) == mine.map(\.pushID))
            #expect(report.records.allSatisfy { $0.outcome == .accepted && $0.status == 200 && $0.recordedAt == t + 12 })
            #expect(report.notHeld == [theirs[0].pushID, unknown])
            #expect(try await store.outboxDepth() == 2)
            #expect(try await store.deliveries(activityID: "a-0", limit: 5).first?.apnsID == "id-\(items[0].pushID)")

            let invalid = await caught {
                try await store.complete(
                    owner: "w2",
                    results: [DeliveryResult(pushID: theirs[0].pushID, outcome: .coalesced, attempts: 0)], at: t + 13)
            }
            #expect(invalid?.invalidField == "results[0].outcome")
            #expect(try await store.complete(owner: "w2", results: [], at: t).records.isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func releasedItemsAreClaimableAtOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.enqueue([Fixture.update("a", importance: .timeSensitive, at: t)])
            #expect(try await store.claim(owner: "w1", limit: 1, now: t, lease: 600).count == 1)
            #expect(try await store.claim(owner: "w2", limit: 1, now: t + 1, lease: 600).isEmpty)
            #expect(try await store.release(owner: "w1") == 1)
            let again = try await store.claim(owner: "w2", limit: 1, now: t + 1, lease: 600)
            #expect(again.count == 1)
            #expect(again.first?.nextAttemptAt == t, "the release kept the item's schedule")
        }
    }
}

extension OutboxItem {
    /// The item given back for another attempt, as a worker settles it.
    fileprivate func retry(attempts: Int, at next: Date, lastError: String) -> OutboxItem {
        var retry = self
        retry.attempts = attempts
        retry.nextAttemptAt = next
        retry.lastError = lastError
        return retry
    }
}
