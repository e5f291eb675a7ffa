import Foundation
import LiveActivity
import Testing

@testable import PushStore

/// Live Activity resources on both stores: one record per user and key, written compare-and-set on its
/// version, its history newest first and bounded, the starts waiting for the app oldest first, and the
/// webhook's `liveActivity.notStarted` stored with the write that refuses a start.
@Suite("PushStore conformance: Live Activity resources")
struct LiveActivityResourceConformanceTests {
    static func record(_ user: String, _ key: String, state: LiveActivityResourceState = .starting, startedAt: Date? = Fixture.start)
        -> LiveActivityResourceRecord
    {
        var record = LiveActivityResourceRecord(
            userID: user, key: key, attributesType: "MatchAttributes", attributes: ["team": "Rangers"], wanted: ["contentState": ["score": 1]],
            state: state, createdAt: Fixture.start)
        record.startedAt = startedAt
        record.startTokenIDs = [UUID()]
        record.renewBefore = 7 * 3600
        return record
    }

    static func event(_ outcome: String, _ seconds: Double) -> LiveActivityResourceEvent {
        LiveActivityResourceEvent(outcome: outcome, at: Fixture.start + seconds, activityID: "a1", contentState: ["score": .number(seconds)])
    }

    @Test(arguments: StoreKind.available)
    func writesAreCompareAndSetAndKeepTheirHistory(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let first = Self.record("u1", "order-1")
            let saved = try #require(
                try await store.saveLiveActivityResource(first, expectedVersion: nil, event: Self.event("started", 0), facts: [], journal: nil))
            #expect(saved.version == 1)
            #expect(
                try await store.saveLiveActivityResource(first, expectedVersion: nil, event: Self.event("started", 1), facts: [], journal: nil)
                    == nil,
                "created once")
            #expect(try await store.liveActivityResource(userID: "u1", key: "order-1") == saved)
            #expect(try await store.liveActivityResource(userID: "u2", key: "order-1") == nil, "a key is the user's own")

            var next = saved
            next.state = .active
            next.activityID = "a1"
            next.activityIDs = ["a1"]
            next.pending = true
            next.finalContentState = ["score": 9]
            next.dismissalDate = Fixture.start + 60
            let active = try #require(
                try await store.saveLiveActivityResource(next, expectedVersion: 1, event: Self.event("registered", 2), facts: [], journal: nil))
            #expect(active.version == 2)
            #expect(
                try await store.saveLiveActivityResource(next, expectedVersion: 1, event: Self.event("registered", 3), facts: [], journal: nil)
                    == nil,
                "a write over a version read before another write is refused")
            #expect(try await store.liveActivityResource(userID: "u1", key: "order-1") == active)

            var current = active
            for step in 0..<60 {
                current = try #require(
                    try await store.saveLiveActivityResource(
                        current, expectedVersion: current.version, event: Self.event("updated", Double(10 + step)), facts: [], journal: nil))
            }
            let history = try await store.liveActivityResourceHistory(userID: "u1", key: "order-1", limit: 100)
            #expect(history.count == 50, "the newest 50 steps are kept")
            #expect(history.first?.at == Fixture.start + 69 && history.first?.contentState == ["score": 69], "newest first")
            #expect(try await store.liveActivityResourceHistory(userID: "u1", key: "order-1", limit: 3).count == 3)
        }
    }

    @Test(arguments: StoreKind.available)
    func startsWaitingForTheAppAreListedOldestFirstPerUserAndType(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let records = [
                Self.record("u1", "late", startedAt: Fixture.start + 20), Self.record("u1", "early", startedAt: Fixture.start + 10),
                Self.record("u1", "ending", state: .ending, startedAt: Fixture.start + 30), Self.record("u1", "running", state: .active),
                Self.record("u2", "other"),
            ]
            for record in records {
                _ = try await store.saveLiveActivityResource(record, expectedVersion: nil, event: Self.event("started", 0), facts: [], journal: nil)
            }
            let waiting = try await store.waitingLiveActivityResources(userID: "u1", attributesType: "MatchAttributes")
            #expect(waiting.map(\.key) == ["early", "late", "ending"])
            #expect(try await store.waitingLiveActivityResources(userID: "u1", attributesType: "OtherAttributes").isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func aRefusedStartStoresItsWebhookEventInTheSameWrite(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var refused = Self.record("u1", "order-1", state: .refused)
            refused.reason = "noPushToStartToken"
            let fact = WebhookFact.liveActivityNotStarted(userID: "u1", key: "order-1", reason: "noPushToStartToken", at: Fixture.start)
            _ = try await store.saveLiveActivityResource(
                refused, expectedVersion: nil, event: Self.event("refused", 0), facts: [fact], journal: WebhookJournalConformanceTests.journal)
            let claimed = try await store.claimWebhooks(owner: "test", limit: 10, now: Fixture.start + 60, lease: 60)
            #expect(claimed.map(\.event) == ["liveActivity.notStarted"])
            // A write that loses its compare-and-set stores no event.
            _ = try await store.saveLiveActivityResource(
                refused, expectedVersion: 7, event: Self.event("refused", 1), facts: [fact], journal: WebhookJournalConformanceTests.journal)
            let all = try await store.claimWebhooks(owner: "later", limit: 10, now: Fixture.start + 86_400, lease: 60)
            #expect(all.map(\.event) == ["liveActivity.notStarted"], "the first event's lease ran out; no second was stored")
        }
    }
}
