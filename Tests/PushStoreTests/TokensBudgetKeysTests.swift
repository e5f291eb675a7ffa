import APNsCore
import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: push-to-start tokens, budget, API keys")
struct TokensBudgetKeysTests {
    static func pushToStart(
        user: String = "u1", device: String, type: String = "MatchAttributes", token: DeviceToken, at: Date = Fixture.start
    ) -> PushToStartRegistration {
        PushToStartRegistration(
            userID: user, deviceID: device, bundleID: "com.example.app", attributesType: type, environment: .sandbox,
            token: token, at: at)
    }

    @Test(arguments: StoreKind.available)
    func pushToStartTokensAreReplacedPerDeviceAndType(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let phoneToken = Fixture.token()
            let phone = try await store.upsertPushToStartToken(Self.pushToStart(device: "phone", token: phoneToken))
            #expect(phone.token == phoneToken && phone.tokenState == .valid && phone.updatedAt == Fixture.start)
            let pad = try await store.upsertPushToStartToken(Self.pushToStart(device: "pad", token: Fixture.token()))
            _ = try await store.upsertPushToStartToken(Self.pushToStart(device: "phone", type: "Other", token: Fixture.token()))
            _ = try await store.upsertPushToStartToken(Self.pushToStart(user: "u2", device: "phone", token: Fixture.token()))

            #expect(try await store.pushToStartTokens(forUser: "u1", attributesType: "MatchAttributes").map(\.deviceID) == ["pad", "phone"])

            let invalidated = try await store.markPushToStartTokenInvalid(token: phoneToken, reason: "Unregistered", at: Fixture.start + 5)
            #expect(invalidated.map(\.id) == [phone.id])
            #expect(invalidated.first?.tokenState == .invalid(reason: "Unregistered", at: Fixture.start + 5))
            #expect(try await store.markPushToStartTokenInvalid(token: phoneToken, reason: "Unregistered", at: Fixture.start + 6).isEmpty)

            let newToken = Fixture.token()
            let replaced = try await store.upsertPushToStartToken(Self.pushToStart(device: "phone", token: newToken, at: Fixture.start + 10))
            #expect(replaced.id == phone.id, "the record keeps its id, so queued starts reach the new token")
            #expect(replaced.token == newToken)
            #expect(replaced.tokenState == .valid)
            #expect(replaced.updatedAt == Fixture.start + 10)
            #expect(try await store.pushToStartToken(id: phone.id) == replaced)
            #expect(try await store.pushToStartToken(id: pad.id) == pad)
            #expect(try await store.pushToStartToken(id: UUID()) == nil)
            #expect(
                await caught { try await store.upsertPushToStartToken(Self.pushToStart(device: "", token: newToken)) }?.invalidField == "deviceId")
        }
    }

    /// A refusal of a start push sent before the app stored the token again leaves it valid.
    @Test(arguments: StoreKind.available)
    func aRefusalOfAnOlderStartPushDoesNotOverruleTheApp(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            _ = try await store.upsertPushToStartToken(Self.pushToStart(device: "phone", token: token))
            #expect(try await store.markPushToStartTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 1).count == 1)
            let stored = try await store.upsertPushToStartToken(Self.pushToStart(device: "phone", token: token, at: Fixture.start + 10))
            #expect(stored.tokenState == .valid)
            #expect(try await store.markPushToStartTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 5).isEmpty)
            #expect(try await store.pushToStartToken(id: stored.id)?.tokenState == .valid)
            let refused = try await store.markPushToStartTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 10)
            #expect(refused.first?.tokenState == .invalid(reason: "Unregistered", at: Fixture.start + 10))
        }
    }

    /// Each grant is counted for an hour; entries older than that are pruned.
    @Test(arguments: StoreKind.available)
    func highPriorityBudgetSlidesOverOneHour(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.consumeHighPriority(activityID: "a", at: t, limit: 100)
            _ = try await store.consumeHighPriority(activityID: "a", at: t + 600, limit: 100)
            _ = try await store.consumeHighPriority(activityID: "b", at: t + 600, limit: 100)
            #expect(try await store.highPriorityCount(activityID: "a", since: t + 600 - 3600) == 2)
            #expect(try await store.highPriorityCount(activityID: "a", since: t + 1) == 1)
            _ = try await store.consumeHighPriority(activityID: "a", at: t + 4200, limit: 100)
            #expect(try await store.highPriorityCount(activityID: "a", since: t + 4200 - 3600) == 2)
            // The entry at t is older than an hour before the last record: it was pruned.
            #expect(try await store.highPriorityCount(activityID: "a", since: t - 1) == 2)
            #expect(try await store.highPriorityCount(activityID: "b", since: t - 1) == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func consumingTheBudgetGrantsUpToTheLimitPerHour(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let t = Fixture.start
            #expect(try await store.consumeHighPriority(activityID: "a", at: t, limit: 2) == BudgetDecision(granted: true, usedInWindow: 1, limit: 2))
            #expect(
                try await store.consumeHighPriority(activityID: "a", at: t + 60, limit: 2) == BudgetDecision(granted: true, usedInWindow: 2, limit: 2)
            )
            #expect(
                try await store.consumeHighPriority(activityID: "a", at: t + 120, limit: 2)
                    == BudgetDecision(granted: false, usedInWindow: 2, limit: 2))
            #expect(try await store.consumeHighPriority(activityID: "b", at: t + 120, limit: 2).granted, "budgets are per activity")
            #expect(try await store.highPriorityCount(activityID: "a", since: t - 1) == 2, "a refusal is not counted")
            // An hour after the first one, one slot is free again.
            #expect(
                try await store.consumeHighPriority(activityID: "a", at: t + 3600, limit: 2)
                    == BudgetDecision(granted: true, usedInWindow: 2, limit: 2))
            #expect(try await store.consumeHighPriority(activityID: "a", at: t + 3601, limit: 0).granted == false)
            #expect(await caught { try await store.consumeHighPriority(activityID: "a", at: t, limit: -1) }?.invalidField == "limit")
        }
    }

    @Test(arguments: StoreKind.available)
    func aGroupsBudgetsAreDecidedTogether(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let t = Fixture.start
            _ = try await store.consumeHighPriority(activityID: "b", at: t, limit: 1)
            let decisions = try await store.consumeHighPriority(
                [(activityID: "c", limit: 3), (activityID: "a", limit: 2), (activityID: "b", limit: 1), (activityID: "z", limit: 0)],
                at: t + 60)
            #expect(
                decisions == [
                    "a": BudgetDecision(granted: true, usedInWindow: 1, limit: 2),
                    "b": BudgetDecision(granted: false, usedInWindow: 1, limit: 1),
                    "c": BudgetDecision(granted: true, usedInWindow: 1, limit: 3),
                    "z": BudgetDecision(granted: false, usedInWindow: 0, limit: 0),
                ])
            #expect(try await store.highPriorityCount(activityID: "a", since: t - 1) == 1, "grants are counted")
            #expect(try await store.highPriorityCount(activityID: "b", since: t - 1) == 1, "refusals are not")
            #expect(try await store.consumeHighPriority([], at: t).isEmpty)
            let twice = await caught { try await store.consumeHighPriority([(activityID: "a", limit: 2), (activityID: "a", limit: 2)], at: t) }
            #expect(twice?.invalidField == "activityId")
            #expect(try await store.highPriorityCount(activityID: "a", since: t - 1) == 1, "a refused batch counts nothing")
        }
    }

    @Test(arguments: StoreKind.available)
    func concurrentBudgetDecisionsNeverExceedTheLimit(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let granted = try await withReopened(harness) { other in
                let stores: [any PushStore] = [store, other]
                return try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<12 {
                        let target = stores[index % 2]
                        group.addTask {
                            try await target.consumeHighPriority(activityID: "hot", at: Fixture.start + Double(index), limit: 5).granted
                        }
                    }
                    var count = 0
                    for try await ok in group where ok { count += 1 }
                    return count
                }
            }
            #expect(granted == 5)
            #expect(try await store.highPriorityCount(activityID: "hot", since: Fixture.start - 1) == 5)
        }
    }

    @Test(arguments: StoreKind.available)
    func apiKeys(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let hash = String(repeating: "ab", count: 32)
            let app = try await store.createAPIKey(name: "ios app", scope: .app, sha256Hash: hash.uppercased(), at: Fixture.start)
            #expect(app.sha256Hash == hash)
            #expect(app.isActive)
            let backend = try await store.createAPIKey(
                name: "backend", scope: .backend, sha256Hash: String(repeating: "cd", count: 32), at: Fixture.start + 1)
            #expect(try await store.apiKey(byHash: hash) == app)
            #expect(try await store.apiKey(byHash: String(repeating: "ef", count: 32)) == nil)
            #expect(try await store.apiKeys() == [app, backend])
            #expect(
                await caught { try await store.createAPIKey(name: "again", scope: .app, sha256Hash: hash, at: Fixture.start) }?.isConflict == true)
            #expect(
                await caught { try await store.createAPIKey(name: "short", scope: .app, sha256Hash: "abc", at: Fixture.start) }?.invalidField
                    == "sha256Hash")
            #expect(
                await caught {
                    try await store.createAPIKey(name: "", scope: .app, sha256Hash: String(repeating: "01", count: 32), at: Fixture.start)
                }?.invalidField == "name")

            let revoked = try await store.revokeAPIKey(id: app.id, at: Fixture.start + 100)
            #expect(revoked.revokedAt == Fixture.start + 100)
            #expect(!revoked.isActive)
            #expect(try await store.revokeAPIKey(id: app.id, at: Fixture.start + 200).revokedAt == Fixture.start + 100)
            #expect(try await store.apiKey(byHash: hash)?.revokedAt == Fixture.start + 100)
            let unknown = UUID()
            #expect(
                await caught { try await store.revokeAPIKey(id: unknown, at: Fixture.start) }
                    == .notFound(kind: .apiKey, id: unknown.uuidString.lowercased()))
        }
    }

    @Test(arguments: StoreKind.available)
    func aClosedStoreIsUnavailable(kind: StoreKind) async throws {
        try await withDatabase(kind) { harness in
            // A store returned from its scope: closed.
            let store = try await withReopened(harness) { $0 }
            let error = await caught { try await store.activityCount() }
            if case .unavailable = error {} else { Issue.record("expected unavailable, got \(String(describing: error))") }
        }
    }
}
