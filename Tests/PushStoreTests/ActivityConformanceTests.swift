import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: activities")
struct ActivityConformanceTests {
    @Test(arguments: StoreKind.available)
    func registerStoresEveryField(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            var registration = Fixture.registration("match-1", token: token, groups: ["party-b", "party-a", "party-b"])
            registration.frequentPushesEnabled = true
            registration.environment = .production
            let record = try await store.register(registration)
            #expect(record.activityID == "match-1")
            #expect(record.pushToken == token)
            #expect(record.bundleID == "com.example.app")
            #expect(record.attributesType == "MatchAttributes")
            #expect(record.environment == .production)
            #expect(record.userID == "user-1")
            #expect(record.groups == ["party-a", "party-b"])
            #expect(record.frequentPushesEnabled)
            #expect(record.state == .active)
            #expect(record.tokenState == .valid)
            #expect(record.registeredAt == Fixture.start)
            #expect(record.startedAt == Fixture.start)
            #expect(record.updatedAt == Fixture.start)
            #expect(record.endedAt == nil && record.dismissalDate == nil)
            #expect(record.lastContentState == nil && record.lastTimestamp == nil)
            #expect(try await store.activity(id: "match-1") == record)
            #expect(try await store.activity(id: "match-2") == nil)
            #expect(try await store.activityCount() == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func registeringTheSameTokenAgainRevalidatesIt(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: token))
            let invalidated = try await store.markTokenInvalid(
                token: token, reason: "Unregistered", at: Fixture.start + 60)
            #expect(invalidated?.tokenState == .invalid(reason: "Unregistered", at: Fixture.start + 60))
            #expect(try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 61) == nil)

            let again = try await store.register(Fixture.registration("a", token: token, groups: ["g"], at: Fixture.start + 120))
            #expect(again.tokenState == .valid)
            #expect(again.pushToken == token)
            #expect(again.groups == ["g"])
            #expect(again.registeredAt == Fixture.start)
            #expect(again.updatedAt == Fixture.start + 120)
            #expect(try await store.retiredToken(token) == nil)
            #expect(try await store.activities(inGroup: "g").map(\.activityID) == ["a"])
        }
    }

    @Test(arguments: StoreKind.available)
    func aNewTokenRetiresTheOldOne(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let first = Fixture.token()
            let second = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: first))
            let updated = try await store.register(Fixture.registration("a", token: second, at: Fixture.start + 5))
            #expect(updated.pushToken == second)
            #expect(try await store.retiredToken(first) == RetiredTokenRecord(token: first, activityID: "a", retiredAt: Fixture.start + 5))
            // A late 410 for the retired token changes nothing.
            #expect(try await store.markTokenInvalid(token: first, reason: "Unregistered", at: Fixture.start + 6) == nil)
            #expect(try await store.activity(id: "a")?.tokenState == .valid)
            // The retired token is never accepted again, for any activity.
            #expect(await caught { try await store.register(Fixture.registration("a", token: first)) }?.isConflict == true)
            #expect(await caught { try await store.register(Fixture.registration("b", token: first)) }?.isConflict == true)
            // Nor is a token another activity holds.
            let held = await caught { try await store.register(Fixture.registration("b", token: second)) }
            guard case .conflict(let detail) = held else {
                Issue.record("registering another activity's token gave \(String(describing: held))")
                return
            }
            #expect(detail.contains("another activity") && !detail.contains("'a'"), "another activity (maybe another user's) is not named: \(detail)")
            #expect(!detail.contains(second.hex), "tokens are shortened in messages")
            #expect(try await store.activityCount() == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func rotateToken(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let first = Fixture.token()
            let second = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: first))
            _ = try await store.markTokenInvalid(token: first, reason: "ExpiredToken", at: Fixture.start + 1)
            let rotated = try await store.rotateToken(activityID: "a", newToken: second, at: Fixture.start + 10)
            #expect(rotated.pushToken == second)
            #expect(rotated.tokenState == .valid)
            #expect(rotated.updatedAt == Fixture.start + 10)
            #expect(try await store.retiredToken(first)?.activityID == "a")
            #expect(try await store.rotateToken(activityID: "a", newToken: second, at: Fixture.start + 11) == rotated)
            let reuse = await caught { try await store.rotateToken(activityID: "a", newToken: first, at: Fixture.start + 12) }
            #expect(reuse?.isConflict == true)
            let missing = await caught {
                try await store.rotateToken(activityID: "missing", newToken: Fixture.token(), at: Fixture.start)
            }
            #expect(missing == .notFound(kind: .activity, id: "missing"))
            #expect(try await store.activity(id: "a")?.pushToken == second)
        }
    }

    /// APNs refusing a push sent before the app reported the token again (a late 410) leaves it valid; a
    /// refusal of a push sent since then counts.
    @Test(arguments: StoreKind.available)
    func aRefusalOfAnOlderPushDoesNotOverruleTheApp(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: token))
            #expect(try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 1) != nil)
            // Reported again by PUT at +10: a push sent at +5 is answered 410 after that.
            _ = try await store.rotateToken(activityID: "a", newToken: token, at: Fixture.start + 10)
            #expect(try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 5) == nil)
            #expect(try await store.activity(id: "a")?.tokenState == .valid)
            #expect(try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 10) != nil)
            // Reported again by POST at +20: the same.
            _ = try await store.register(Fixture.registration("a", token: token, at: Fixture.start + 20))
            #expect(try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 15) == nil)
            #expect(try await store.activity(id: "a")?.tokenState == .valid)
            // A new token's validity starts with the rotation too.
            let second = Fixture.token()
            _ = try await store.rotateToken(activityID: "a", newToken: second, at: Fixture.start + 30)
            #expect(try await store.markTokenInvalid(token: second, reason: "BadDeviceToken", at: Fixture.start + 29) == nil)
            let refused = try await store.markTokenInvalid(token: second, reason: "BadDeviceToken", at: Fixture.start + 31)
            #expect(refused?.tokenState == .invalid(reason: "BadDeviceToken", at: Fixture.start + 31))
        }
    }

    /// The app sending its current token again (as PUT) makes a refused token valid again, like registering it.
    @Test(arguments: StoreKind.available)
    func rotatingToTheCurrentTokenRevalidatesIt(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: token))
            _ = try await store.markTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 1)
            let again = try await store.rotateToken(activityID: "a", newToken: token, at: Fixture.start + 10)
            #expect(again.pushToken == token)
            #expect(again.tokenState == .valid)
            #expect(again.updatedAt == Fixture.start + 10)
            #expect(try await store.retiredToken(token) == nil, "the current token is not retired")
            // Already valid: nothing changes, not even the update time.
            #expect(try await store.rotateToken(activityID: "a", newToken: token, at: Fixture.start + 20) == again)
        }
    }

    @Test(arguments: StoreKind.available)
    func endAndDismiss(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.register(Fixture.registration("a"))
            let change = try await store.markEnded(activityID: "a", at: Fixture.start + 100, dismissalDate: Fixture.start + 400)
            #expect(change.endedNow, "this call ended the active activity")
            let ended = change.activity
            #expect(ended.state == .ended)
            #expect(ended.endedAt == Fixture.start + 100)
            #expect(ended.dismissalDate == Fixture.start + 400)
            let endedAgain = try await store.markEnded(activityID: "a", at: Fixture.start + 200, dismissalDate: nil)
            #expect(!endedAgain.endedNow, "it was ended already")
            #expect(endedAgain.activity.endedAt == Fixture.start + 100, "the first end time is kept")
            #expect(endedAgain.activity.dismissalDate == Fixture.start + 400)
            let dismissed = try await store.markDismissed(activityID: "a", at: Fixture.start + 500)
            #expect(dismissed.activity.state == .dismissed && !dismissed.endedNow)
            #expect(try await store.markEnded(activityID: "a", at: Fixture.start + 600, dismissalDate: nil).activity.state == .dismissed)
            _ = try await store.register(Fixture.registration("b"))
            #expect(try await store.markDismissed(activityID: "b", at: Fixture.start + 700).endedNow, "dismissing an active one ends it")
            let unknown = await caught { try await store.markEnded(activityID: "nope", at: Fixture.start, dismissalDate: nil) }
            #expect(unknown == .notFound(kind: .activity, id: "nope"))
        }
    }

    /// A list read turns rows into records as they arrive; a malformed stored row fails the whole read with
    /// a database error naming the column, whichever row it is.
    @Test(arguments: StoreKind.available)
    func aMalformedRowFailsAListReadClearly(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for id in ["a", "b", "c"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
            #expect(try await store.activities(inGroup: "party").map(\.activityID) == ["a", "b", "c"])
            let sqlStore = try #require(store as? SQLPushStore)
            try await sqlStore.backend.transaction { session throws(PushStoreError) in
                try await session.execute("UPDATE activities SET groups_json = 'oops' WHERE activity_id = 'b'")
            }
            let failure = await caught { try await store.activities(inGroup: "party") }
            #expect(failure == .database(detail: "column 'groups_json' holds 'oops', not a JSON array of strings"))
        }
    }

    /// Of concurrent ends and dismissals of one activity (the app's `/ended` and `/dismissed`, the sweep,
    /// a group end), exactly one reports that it ended it.
    @Test(arguments: StoreKind.available)
    func exactlyOneOfConcurrentEndsEndsIt(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for round in 0..<5 {
                let id = "race-\(round)"
                _ = try await store.register(Fixture.registration(id))
                let endedNow = await withTaskGroup(of: Int.self) { group in
                    for caller in 0..<6 {
                        group.addTask {
                            let at = Fixture.start + Double(caller)
                            switch caller % 3 {
                            case 0: return (try? await store.markEnded(activityID: id, at: at, dismissalDate: nil).endedNow) == true ? 1 : 0
                            case 1: return (try? await store.markDismissed(activityID: id, at: at).endedNow) == true ? 1 : 0
                            default: return (try? await store.markEnded(activityIDs: [id], at: at, dismissalDate: nil).count) ?? 0
                            }
                        }
                    }
                    return await group.reduce(0, +)
                }
                #expect(endedNow == 1, "round \(round)")
            }
        }
    }

    /// Ended activities become dismissed when their dismissal date passes; active ones, ended ones without
    /// a dismissal date and ones not yet due stay as they are.
    @Test(arguments: StoreKind.available)
    func endedActivitiesAreDismissedByTheirDismissalDate(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for id in ["due", "later", "undated", "active"] { _ = try await store.register(Fixture.registration(id)) }
            _ = try await store.markEnded(activityID: "due", at: Fixture.start + 10, dismissalDate: Fixture.start + 100)
            _ = try await store.markEnded(activityID: "later", at: Fixture.start + 10, dismissalDate: Fixture.start + 101)
            _ = try await store.markEnded(activityID: "undated", at: Fixture.start + 10, dismissalDate: nil)
            #expect(try await store.dismissEnded(dismissedBy: Fixture.start + 99) == 0)
            #expect(try await store.dismissEnded(dismissedBy: Fixture.start + 100) == 1)
            let due = try #require(try await store.activity(id: "due"))
            #expect(due.state == .dismissed)
            #expect(due.updatedAt == Fixture.start + 100)
            #expect(due.endedAt == Fixture.start + 10, "the end time is kept")
            #expect(try await store.activity(id: "later")?.state == .ended)
            #expect(try await store.activity(id: "undated")?.state == .ended)
            #expect(try await store.activity(id: "active")?.state == .active)
            #expect(try await store.dismissEnded(dismissedBy: Fixture.start + 100) == 0, "already dismissed")
        }
    }

    @Test(arguments: StoreKind.available)
    func contentStateOnlyMovesForward(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.register(Fixture.registration("a"))
            #expect(
                try await store.recordContentState(
                    [(activityID: "a", timestamp: Fixture.start + 20)], contentState: ["score": 2, "team": "red"], acceptedAt: Fixture.start + 20)
                    == 1)
            let newer = try #require(try await store.activity(id: "a"))
            #expect(newer.lastContentState == ["score": 2, "team": "red"])
            #expect(newer.lastTimestamp == Fixture.start + 20)
            #expect(
                try await store.recordContentState(
                    [(activityID: "a", timestamp: Fixture.start + 10)], contentState: ["score": 1], acceptedAt: Fixture.start + 10) == 0)
            let older = try #require(try await store.activity(id: "a"))
            #expect(older.lastContentState == ["score": 2, "team": "red"])
            #expect(older.lastTimestamp == Fixture.start + 20)
        }
    }

    @Test(arguments: StoreKind.available)
    func batchOperationsForAGroupSend(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for id in ["a", "b", "c"] { _ = try await store.register(Fixture.registration(id)) }
            _ = try await store.recordContentState(
                [(activityID: "c", timestamp: Fixture.start + 50)], contentState: ["hp": 9], acceptedAt: Fixture.start)

            let changed = try await store.recordContentState(
                [
                    (activityID: "a", timestamp: Fixture.start + 10), (activityID: "missing", timestamp: Fixture.start + 10),
                    (activityID: "b", timestamp: Fixture.start + 11), (activityID: "c", timestamp: Fixture.start + 12),
                ],
                contentState: ["hp": 5], acceptedAt: Fixture.start)
            #expect(changed == 2, "a and b; the missing one is skipped; c keeps its newer state")
            #expect(try await store.activity(id: "a")?.lastContentState == ["hp": 5])
            #expect(try await store.activity(id: "a")?.lastTimestamp == Fixture.start + 10)
            #expect(try await store.activity(id: "b")?.lastTimestamp == Fixture.start + 11)
            #expect(try await store.activity(id: "c")?.lastContentState == ["hp": 9])

            // An end without a final state: the timestamp moves on, the stored state stays.
            #expect(
                try await store.recordContentState([(activityID: "a", timestamp: Fixture.start + 20)], contentState: nil, acceptedAt: Fixture.start)
                    == 1)
            #expect(try await store.activity(id: "a")?.lastContentState == ["hp": 5])
            #expect(try await store.activity(id: "a")?.lastTimestamp == Fixture.start + 20)

            let read = try await store.activities(ids: ["c", "missing", "a"])
            #expect(Set(read.map(\.activityID)) == ["a", "c"])
            #expect(read.first { $0.activityID == "a" } == (try await store.activity(id: "a")))
            // The send path's read: everything but the content-state, which stays unread.
            let withoutStates = try await store.activities(ids: ["c", "missing", "a"], contentStates: false)
            var expected = try #require(try await store.activity(id: "a"))
            #expect(expected.lastContentState != nil)
            expected.lastContentState = nil
            #expect(withoutStates.first { $0.activityID == "a" } == expected)
            #expect(Set(withoutStates.map(\.activityID)) == ["a", "c"])

            let ended = try await store.markEnded(
                activityIDs: ["b", "missing", "a"], at: Fixture.start + 100,
                dismissalDate: Fixture.start + 400)
            #expect(ended == ["b", "a"], "the ones this call ended, in the order given")
            #expect(
                try await store.markEnded(activityIDs: ["a", "b"], at: Fixture.start + 101, dismissalDate: nil).isEmpty,
                "already ended")
            for id in ["a", "b"] {
                let record = try #require(try await store.activity(id: id))
                #expect(record.state == .ended && record.endedAt == Fixture.start + 100 && record.dismissalDate == Fixture.start + 400)
            }
            #expect(try await store.activity(id: "c")?.state == .active)
            #expect(try await store.markEnded(activityIDs: [], at: Fixture.start, dismissalDate: nil).isEmpty)
            #expect(try await store.activities(ids: []).isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func queriesByGroupAgeAndForgetting(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.register(Fixture.registration("a", user: "u1", groups: ["heroes"], at: Fixture.start))
            _ = try await store.register(Fixture.registration("b", user: "u1", groups: ["heroes", "x"], at: Fixture.start + 3600))
            _ = try await store.register(Fixture.registration("c", user: "u2", groups: ["x"], at: Fixture.start + 7200))
            _ = try await store.register(Fixture.registration("d", user: nil, at: Fixture.start + 7200))
            #expect(try await store.activities(inGroup: "heroes").map(\.activityID) == ["a", "b"])
            #expect(try await store.activities(inGroup: "x").map(\.activityID) == ["b", "c"])
            #expect(try await store.activities(inGroup: "nobody").isEmpty)
            #expect(try await store.activeActivities(olderThan: Fixture.start + 3600).map(\.activityID) == ["a", "b"])

            _ = try await store.markEnded(activityID: "a", at: Fixture.start + 8000, dismissalDate: nil)
            _ = try await store.markEnded(activityID: "b", at: Fixture.start + 8000, dismissalDate: Fixture.start + 20_000)
            #expect(try await store.activeActivities(olderThan: Fixture.start + 3600).isEmpty)
            // b is still visible until its dismissal date.
            #expect(try await store.forgetEnded(before: Fixture.start + 10_000) == 1)
            #expect(try await store.activity(id: "a") == nil)
            #expect(try await store.activities(inGroup: "heroes").map(\.activityID) == ["b"])
            #expect(try await store.forgetEnded(before: Fixture.start + 20_001) == 1)
            #expect(try await store.activityCount() == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func forgettingRemovesRetiredTokensAndHistory(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let old = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: old))
            _ = try await store.rotateToken(activityID: "a", newToken: Fixture.token(), at: Fixture.start + 1)
            _ = try await store.enqueue([Fixture.update("a")])
            let item = try #require(try await store.claim(owner: "w", limit: 10, now: Fixture.start + 2, lease: 30).first)
            try await store.complete(
                DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1), owner: "w", at: Fixture.start + 3)
            _ = try await store.markEnded(activityID: "a", at: Fixture.start + 4, dismissalDate: nil)
            #expect(try await store.forgetEnded(before: Fixture.start + 5) == 1)
            #expect(try await store.retiredToken(old) == nil)
            #expect(try await store.deliveries(activityID: "a", limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func badInputNamesTheFieldAndRule(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let cases: [(ActivityRegistration, String)] = [
                (Fixture.registration(String(repeating: "x", count: 129)), "activityId"),
                (Fixture.registration(""), "activityId"),
                (Fixture.registration("a", user: ""), "userId"),
                (Fixture.registration("a", groups: ["ok", ""]), "groups[1]"),
                (Fixture.registration("a\u{7}b"), "activityId"),
            ]
            for (registration, field) in cases {
                let error = await caught { try await store.register(registration) }
                guard case .invalidInput(let reported, let rule) = error else {
                    Issue.record("a bad \(field) gave \(String(describing: error)), expected invalidInput")
                    continue
                }
                #expect(reported == field)
                #expect(!rule.isEmpty)
            }
            #expect(try await store.activityCount() == 0)
            _ = try await store.register(Fixture.registration(String(repeating: "x", count: 128)))
            #expect(try await store.activityCount() == 1)
        }
    }
}
