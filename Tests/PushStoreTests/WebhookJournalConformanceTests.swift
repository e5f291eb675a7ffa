import APNsCore
import Foundation
import Testing

@testable import PushStore

/// The transactional outbox: a store operation given a ``WebhookJournal`` stores the webhook events of
/// what it changed in its own transaction. So when it returns the events are durable, with nothing else
/// to call: a process that dies right after (the store is closed and reopened here, as after a crash)
/// still has them; and a change that rolls back stores none.
@Suite("PushStore conformance: webhook events in the change's transaction")
struct WebhookJournalConformanceTests {
    /// A journal that writes each fact as its description (the server's JSON is tested in the server).
    static let journal = WebhookJournal { facts in
        facts.map { fact in
            let event: String
            switch fact {
            case .activityEnded: event = "activity.ended"
            case .activityTokenInvalid, .pushToStartTokenInvalid: event = "token.invalid"
            case .activityRenewed: event = "activity.renewed"
            case .renewalFailed: event = "activity.renewalFailed"
            case .liveActivityNotStarted: event = "liveActivity.notStarted"
            }
            return WebhookDelivery(event: event, body: Data("\(fact)".utf8), createdAt: Fixture.start)
        }
    }

    /// A journal whose rows the store refuses (an empty event name): the operation must fail as a whole.
    static let refused = WebhookJournal { facts in
        facts.map { _ in WebhookDelivery(event: "", body: Data(), createdAt: Fixture.start) }
    }

    /// The facts stored, read from a store opened anew on the same database: as a successor would find them.
    private func eventsAfterACrash(_ store: any PushStore, _ harness: StoreHarness) async throws -> [String] {
        await store.close()
        return try await withReopened(harness) { successor in
            let claimed = try await successor.claimWebhooks(owner: "successor", limit: 1000, now: Fixture.start + 86_400, lease: 60)
            return claimed.map { String(decoding: $0.body, as: UTF8.self) }.sorted()
        }
    }

    @Test(arguments: StoreKind.available)
    func eachChangeStoresItsEventsBeforeItReturns(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let t = Fixture.start
            let token = Fixture.token()
            _ = try await store.register(Fixture.registration("ended", user: "u1"))
            _ = try await store.register(Fixture.registration("dismissed", user: "u2"))
            _ = try await store.register(Fixture.registration("invalid", token: token, user: "u3"))
            for id in ["b1", "b2"] { _ = try await store.register(Fixture.registration(id, user: "u4")) }
            _ = try await store.register(Fixture.registration("already", user: nil))
            _ = try await store.markEnded(activityID: "already", at: t, dismissalDate: nil)
            let pushToStart = Fixture.token()
            let record = try await store.upsertPushToStartToken(
                PushToStartRegistration(
                    userID: "u5", deviceID: "phone", bundleID: "com.example.app", attributesType: "MatchAttributes",
                    environment: .sandbox, token: pushToStart, at: t))

            #expect(try await store.markEnded(activityID: "ended", at: t + 1, dismissalDate: nil, journal: Self.journal).endedNow)
            #expect(
                try await !store.markEnded(activityID: "ended", at: t + 2, dismissalDate: nil, journal: Self.journal).endedNow,
                "ended once, reported once")
            #expect(try await store.markDismissed(activityID: "dismissed", at: t + 3, journal: Self.journal).endedNow)
            #expect(try await store.markTokenInvalid(token: token, reason: "BadDeviceToken", at: t + 4, journal: Self.journal) != nil)
            #expect(
                try await store.markEnded(
                    activityIDs: ["b1", "already", "b2", "missing"], at: t + 5, dismissalDate: nil,
                    journal: Self.journal) == ["b1", "b2"])
            #expect(
                try await store.markPushToStartTokenInvalid(
                    token: pushToStart, reason: "Unregistered", at: t + 6,
                    journal: Self.journal
                ).map(\.id) == [record.id])

            // No call after the change: what a server that died right after its store call would leave.
            let events = try await eventsAfterACrash(store, harness)
            let expected: [WebhookFact] = [
                .activityEnded(activityID: "ended", userID: "u1", at: t + 1),
                .activityEnded(activityID: "dismissed", userID: "u2", at: t + 3),
                .activityTokenInvalid(activityID: "invalid", userID: "u3", token: token, reason: "BadDeviceToken", at: t + 4),
                .activityEnded(activityID: "b1", userID: "u4", at: t + 5),
                .activityEnded(activityID: "b2", userID: "u4", at: t + 5),
                .pushToStartTokenInvalid(tokenID: record.id, userID: "u5", token: pushToStart, reason: "Unregistered", at: t + 6),
            ]
            #expect(events == expected.map { "\($0)" }.sorted())
        }
    }

    @Test(arguments: StoreKind.available)
    func aGroupPagesEndsStoreTheirEventsWithThePage(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            let t = Fixture.start
            for id in ["a", "b", "c"] { _ = try await store.register(Fixture.registration(id, user: "u-\(id)", groups: ["party"])) }
            _ = try await store.markEnded(activityID: "c", at: t, dismissalDate: nil)
            let send = GroupSendConformanceTests.send("party", kind: .end)
            try await store.createGroupSend(send)
            let page = try #require(try await store.claimPage(owner: "w1", pageSize: 10, now: t + 1, lease: 30))
            var outcome = GroupSendPageOutcome()
            outcome.ended = ["a", "b", "c"]
            let report = try await store.completePage(page, owner: "w1", outcome: outcome, at: t + 2, journal: Self.journal)
            #expect(report.endedNow == ["a", "b"])
            let events = try await eventsAfterACrash(store, harness)
            #expect(
                events
                    == [
                        WebhookFact.activityEnded(activityID: "a", userID: "u-a", at: t + 2),
                        .activityEnded(activityID: "b", userID: "u-b", at: t + 2),
                    ].map { "\($0)" }.sorted())
        }
    }

    /// The events are part of the change: when they cannot be stored, the change is not made either.
    @Test(arguments: StoreKind.available)
    func aChangeWhoseEventsCannotBeStoredIsRolledBack(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let token = Fixture.token()
            _ = try await store.register(Fixture.registration("a", token: token))
            #expect(await caught { try await store.markEnded(activityID: "a", at: t, dismissalDate: nil, journal: Self.refused) } != nil)
            #expect(await caught { try await store.markEnded(activityIDs: ["a"], at: t, dismissalDate: nil, journal: Self.refused) } != nil)
            #expect(await caught { try await store.markTokenInvalid(token: token, reason: "Unregistered", at: t, journal: Self.refused) } != nil)
            let a = try #require(try await store.activity(id: "a"))
            #expect(a.state == .active && a.tokenState == .valid, "nothing changed")
            #expect(try await store.webhookDepth() == 0)
            // Without a journal the same change stores nothing.
            #expect(try await store.markEnded(activityID: "a", at: t, dismissalDate: nil).endedNow)
            #expect(try await store.webhookDepth() == 0)
        }
    }
}
