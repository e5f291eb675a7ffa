import APNsCore
import Foundation
import Testing

@testable import PushStore

/// Who owns what, decided inside the store's transactions: activity ids, push-to-start token values and
/// app-token generations (issue 20).
@Suite("PushStore conformance: ownership")
struct OwnershipConformanceTests {
    /// 50 rounds of two users registering one new id at once: exactly one owns it each round, with its token.
    @Test(arguments: StoreKind.available)
    func ofTwoRacingRegistrationsExactlyOneOwnsTheID(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for round in 0..<50 {
                let id = "race-\(round)"
                let registrations = ["alice", "mallory"].map { Fixture.registration(id, token: Fixture.token(), user: $0) }
                let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
                    for registration in registrations {
                        group.addTask {
                            let user = registration.userID ?? ""
                            do {
                                _ = try await store.register(registration, ownership: .keep)
                                return (user, true)
                            } catch let error as PushStoreError {
                                if error != PushStoreError.taken(kind: .activity, id: id) {
                                    Issue.record("round \(round): \(error)")
                                }
                                return (user, false)
                            } catch {
                                Issue.record("round \(round): \(error)")
                                return (user, false)
                            }
                        }
                    }
                    var outcomes = [String: Bool]()
                    for await (user, won) in group { outcomes[user] = won }
                    return outcomes
                }
                let winners = outcomes.filter(\.value).map(\.key)
                #expect(winners.count == 1, "round \(round): \(outcomes)")
                let stored = try #require(try await store.activity(id: id))
                #expect(winners.first == stored.userID, "round \(round)")
                #expect(registrations.first { $0.userID == stored.userID }?.pushToken == stored.pushToken)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func keepingOwnershipLetsTheOwnerReRegisterAndRefusesEveryoneElse(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let original = try await store.register(Fixture.registration("ride", user: "alice"), ownership: .keep)
            var again = Fixture.registration("ride", user: "alice")
            again.groups = ["party"]
            #expect(try await store.register(again, ownership: .keep).groups == ["party"])
            await #expect(throws: PushStoreError.taken(kind: .activity, id: "ride")) {
                try await store.register(Fixture.registration("ride", user: "mallory"), ownership: .keep)
            }
            _ = try await store.register(Fixture.registration("orphan", user: nil))
            await #expect(throws: PushStoreError.taken(kind: .activity, id: "orphan")) {
                try await store.register(Fixture.registration("orphan", user: "mallory"), ownership: .keep)
            }
            let stored = try #require(try await store.activity(id: "ride"))
            #expect(stored.userID == "alice" && stored.registeredAt == original.registeredAt)
            // A development key may move it.
            #expect(try await store.register(Fixture.registration("ride", user: "bob"), ownership: .replace).userID == "bob")
        }
    }

    @Test(arguments: StoreKind.available)
    func aPushToStartTokenValueHasOneHolderUntilReleased(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let value = Fixture.token()
            _ = try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "victim", device: "phone", token: value))
            await #expect(throws: PushStoreError.taken(kind: .pushToStartToken, id: value.shortened)) {
                try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "attacker", device: "x", token: value))
            }
            // The holder's own second record of it is fine; an invalid token no longer holds the value.
            _ = try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "victim", device: "pad", token: value))
            #expect(try await store.releasePushToStartTokens(userID: "victim", deviceID: "pad") == 1)
            #expect(try await store.releasePushToStartTokens(userID: "victim", deviceID: "pad") == 0)
            _ = try await store.markPushToStartTokenInvalid(token: value, reason: "Unregistered", at: Fixture.start + 60)
            let moved = try await store.upsertPushToStartToken(
                TokensBudgetKeysTests.pushToStart(user: "attacker", device: "x", token: value, at: Fixture.start + 120))
            #expect(moved.userID == "attacker")
            // Released by a sign-out, every device of the user.
            let other = Fixture.token()
            _ = try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "carol", device: "a", token: other))
            #expect(try await store.withdrawAppTokens(subject: "carol", at: Fixture.start).releasedPushToStartTokens == 1)
            _ = try await store.upsertPushToStartToken(TokensBudgetKeysTests.pushToStart(user: "dave", device: "a", token: other))
        }
    }

    @Test(arguments: StoreKind.available)
    func appTokenStandingFollowsSignOutsAndKeyRevocation(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(try await store.appTokenStanding(subject: "alice", keyID: nil) == AppTokenStanding(generation: 0, keyActive: nil))
            #expect(try await store.withdrawAppTokens(subject: "alice", at: Fixture.start).generation == 1)
            #expect(try await store.withdrawAppTokens(subject: "alice", at: Fixture.start + 1).generation == 2)
            #expect(try await store.appTokenStanding(subject: "alice", keyID: nil).generation == 2)
            #expect(try await store.appTokenStanding(subject: "bob", keyID: nil).generation == 0)

            let key = try await store.createAPIKey(name: "backend", scope: .backend, sha256Hash: String(repeating: "c", count: 64), at: Fixture.start)
            #expect(try await store.appTokenStanding(subject: "bob", keyID: key.id).keyActive == true)
            _ = try await store.revokeAPIKey(id: key.id, at: Fixture.start)
            #expect(try await store.appTokenStanding(subject: "bob", keyID: key.id).keyActive == false)
            #expect(try await store.appTokenStanding(subject: "bob", keyID: UUID()).keyActive == false, "an unknown key is no key")
        }
    }
}
