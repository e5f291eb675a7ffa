import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: shared secrets, idempotency keys, webhook queue")
struct SecretsIdempotencyWebhookTests {
    static func secret(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }
    static let hashA = String(repeating: "a", count: 64)
    static let hashB = String(repeating: "b", count: 64)

    @Test(arguments: StoreKind.available)
    func theFirstSecretWinsEverywhere(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            #expect(try await store.serverSecret(named: "app-token", candidate: Self.secret(1), at: Fixture.start) == Self.secret(1))
            #expect(try await store.serverSecret(named: "app-token", candidate: Self.secret(2), at: Fixture.start) == Self.secret(1))
            try await withReopened(harness) { other throws in
                #expect(try await other.serverSecret(named: "app-token", candidate: Self.secret(3), at: Fixture.start) == Self.secret(1))
                #expect(try await other.serverSecret(named: "other", candidate: Self.secret(4), at: Fixture.start) == Self.secret(4))
            }
            #expect(
                await caught { try await store.serverSecret(named: "short", candidate: Data([1]), at: Fixture.start) }?.invalidField == "candidate")
        }
    }

    @Test(arguments: StoreKind.available)
    func anIdempotencyKeyIsReservedOnceAndReplaysItsAnswer(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            func reserve(_ key: String, _ hash: String, at offset: TimeInterval, owner: String = "backend:k1") async throws -> IdempotencyClaim {
                try await store.reserveIdempotencyKey(
                    owner: owner, key: key, requestHash: hash, at: Fixture.start + offset, keepFor: 86_400, takeOverAfter: 60)
            }
            #expect(try await reserve("k", Self.hashA, at: 0) == .reserved)
            guard case .inProgress(let running) = try await reserve("k", Self.hashA, at: 1) else {
                Issue.record("a second reservation while the first runs must be inProgress")
                return
            }
            #expect(running.reservedAt == Fixture.start)
            guard case .mismatch = try await reserve("k", Self.hashB, at: 2) else {
                Issue.record("another body under the same key must be a mismatch")
                return
            }
            #expect(try await reserve("k", Self.hashA, at: 2, owner: "backend:k2") == .reserved, "each principal has its own keys")

            try await store.completeIdempotencyKey(
                owner: "backend:k1", key: "k", status: 202, responseBody: Data("{\"a\":1}".utf8), at: Fixture.start + 3)
            guard case .completed(let answered) = try await reserve("k", Self.hashA, at: 4) else {
                Issue.record("an answered key must replay")
                return
            }
            #expect(answered.status == 202 && answered.responseBody == Data("{\"a\":1}".utf8))
            // Released reservations can be taken again; answered ones are kept.
            try await store.releaseIdempotencyKey(owner: "backend:k1", key: "k")
            guard case .completed = try await reserve("k", Self.hashA, at: 5) else {
                Issue.record("release keeps answers")
                return
            }
            #expect(try await reserve("r", Self.hashA, at: 0) == .reserved)
            try await store.releaseIdempotencyKey(owner: "backend:k1", key: "r")
            #expect(try await reserve("r", Self.hashB, at: 1) == .reserved)
            // A holder that died is taken over after `takeOverAfter`; a day later the key is free.
            #expect(try await reserve("d", Self.hashA, at: 0) == .reserved)
            #expect(try await reserve("d", Self.hashA, at: 61) == .reserved)
            guard case .inProgress = try await reserve("d", Self.hashA, at: 62) else {
                Issue.record("taken over anew")
                return
            }
            #expect(try await reserve("k", Self.hashB, at: 86_401) == .reserved, "after a day the key is free")
            #expect(try await store.forgetIdempotencyKeys(before: Fixture.start + 86_000) == 3)
            #expect(
                await caught {
                    try await store.completeIdempotencyKey(owner: "backend:k1", key: "gone", status: 202, responseBody: Data(), at: Fixture.start)
                }
                    == .notFound(kind: .idempotencyKey, id: "gone"))
            #expect(await caught { try await reserve("bad\u{7}", Self.hashA, at: 0) }?.invalidField == "key")
        }
    }

    @Test(arguments: StoreKind.available)
    func concurrentReservationsOfOneKeyLetExactlyOneThrough(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let claims = try await withReopened(harness) { other in
                let stores: [any PushStore] = [store, other]
                return try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            try await stores[index % 2].reserveIdempotencyKey(
                                owner: "o", key: "same", requestHash: Self.hashA, at: Fixture.start, keepFor: 86_400, takeOverAfter: 60)
                        }
                    }
                    return try await group.reduce(into: [IdempotencyClaim]()) { $0.append($1) }
                }
            }
            #expect(claims.filter { $0 == .reserved }.count == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func webhookEventsAreClaimedRetriedAndCompleted(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let first = WebhookDelivery(event: "token.invalid", body: Data("{\"n\":1}".utf8), createdAt: Fixture.start)
            let second = WebhookDelivery(event: "activity.ended", body: Data("{\"n\":2}".utf8), createdAt: Fixture.start + 1)
            try await store.enqueueWebhooks([first, second])
            #expect(try await store.webhookDepth() == 2)

            let claimed = try await store.claimWebhooks(owner: "a", limit: 10, now: Fixture.start + 2, lease: 30)
            #expect(claimed == [first, second])
            #expect(
                try await store.claimWebhooks(owner: "b", limit: 10, now: Fixture.start + 3, lease: 30).isEmpty,
                "claimed events are not handed out twice")
            #expect(await caught { try await store.completeWebhook(id: first.id, owner: "b") } != nil)

            try await store.completeWebhook(id: first.id, owner: "a")
            try await store.rescheduleWebhook(id: second.id, owner: "a", nextAttemptAt: Fixture.start + 60, attempts: 1, lastError: "HTTP 500")
            #expect(try await store.claimWebhooks(owner: "b", limit: 10, now: Fixture.start + 59, lease: 30).isEmpty)
            // A restarted process (another store on the same database) finds the event.
            try await withReopened(harness) { restarted in
                let retried = try await restarted.claimWebhooks(owner: "b", limit: 10, now: Fixture.start + 60, lease: 30)
                #expect(retried.map(\.id) == [second.id])
                #expect(retried.first?.attempts == 1 && retried.first?.lastError == "HTTP 500" && retried.first?.body == second.body)
                // An expired lease makes it claimable by another owner; release gives it back at once.
                #expect(try await store.claimWebhooks(owner: "c", limit: 10, now: Fixture.start + 91, lease: 30).map(\.id) == [second.id])
                #expect(try await store.releaseWebhooks(owner: "c") == 1)
                #expect(try await restarted.claimWebhooks(owner: "d", limit: 10, now: Fixture.start + 92, lease: 30).count == 1)
                try await restarted.completeWebhook(id: second.id, owner: "d")
                #expect(try await store.webhookDepth() == 0)
            }
            #expect(
                await caught { try await store.completeWebhook(id: second.id, owner: "d") }
                    == .notFound(kind: .webhookEvent, id: second.id.uuidString.lowercased()))
        }
    }

    @Test(arguments: StoreKind.available)
    func aRenewedWebhookClaimOutlastsItsLease(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let event = WebhookDelivery(event: "token.invalid", body: Data("{}".utf8), createdAt: Fixture.start)
            try await store.enqueueWebhooks([event])
            #expect(try await store.claimWebhooks(owner: "a", limit: 10, now: Fixture.start, lease: 30).map(\.id) == [event.id])
            #expect(try await store.renewWebhooks(owner: "a", ids: [event.id], until: Fixture.start + 120) == 1)
            #expect(try await store.renewWebhooks(owner: "b", ids: [event.id], until: Fixture.start + 500) == 0, "b holds no claim")
            // Past the first lease, before the renewed one ends: still a's.
            #expect(try await store.claimWebhooks(owner: "b", limit: 10, now: Fixture.start + 60, lease: 30).isEmpty)
            #expect(try await store.claimWebhooks(owner: "b", limit: 10, now: Fixture.start + 120, lease: 30).map(\.id) == [event.id])
            #expect(try await store.renewWebhooks(owner: "a", ids: [event.id], until: Fixture.start + 500) == 0, "taken over by b")
            await #expect(throws: PushStoreError.self) {
                try await store.renewWebhooks(owner: "", ids: [event.id], until: Fixture.start + 500)
            }
        }
    }
}
