import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

/// Group pages record the pushes they sent as planned in one row per page (`AcceptedPagePushes`); the
/// history, the send's counts and the console's tallies read them back as if each had its own row.
@Suite("PushStore conformance: group page records")
struct PageRecordConformanceTests {
    /// Registers a, b, c and d in `party`, sends to the group and records the send's first page
    /// (``recordFirstPage(_:_:at:)``); the send.
    private static func partyWithItsFirstPageRecorded(_ store: any PushStore, at t: Date) async throws -> GroupSend {
        for id in ["a", "b", "c", "d"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
        let send = GroupSendConformanceTests.send("party")
        try await store.createGroupSend(send)
        try await recordFirstPage(store, send, at: t)
        return send
    }

    /// Records a page of `party` (members a, b, c, d) at `t + 3`: a, b and c accepted as planned (b with an
    /// apns-unique-id), d refused with a history row of its own.
    private static func recordFirstPage(_ store: any PushStore, _ send: GroupSend, at t: Date) async throws {
        let page = try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 1, lease: 30))
        #expect(page.activities.map(\.activityID) == ["a", "b", "c", "d"])
        var outcome = GroupSendPageOutcome()
        outcome.accepted.append(activityID: "a", apnsUniqueID: nil, sentAt: t + 2)
        outcome.accepted.append(activityID: "b", apnsUniqueID: "unique-b", sentAt: t + 2.5)
        outcome.accepted.append(activityID: "c", apnsUniqueID: nil, sentAt: t + 2)
        outcome.records = [GroupSendConformanceTests.record(page, "d", .rejected, at: t + 2)]
        outcome.contentStates = ["a", "b", "c"].map { ($0, t) }
        outcome.contentState = ["score": 7]
        #expect(try await store.completePage(page, owner: "w", outcome: outcome, at: t + 3).held)
    }

    @Test(arguments: StoreKind.available)
    func acceptedPushesAreReadBackAsHistoryEntriesAndCounted(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let send = try await Self.partyWithItsFirstPageRecorded(store, at: t)

            let a = try #require(try await store.deliveries(activityID: "a", limit: 10).first)
            let pushID = GroupSend.pushID(sendID: send.sendID, activityID: "a")
            #expect(
                a
                    == DeliveryRecord(
                        pushID: pushID, target: .activity(id: "a"), kind: .update, acceptedAt: send.acceptedAt, sentAt: t + 2.5,
                        priority: .conservesPower, requestedPriority: .conservesPower, downgradeReason: nil,
                        apnsID: pushID.uuidString.lowercased(), status: 200, reason: nil, attempts: 1, outcome: .accepted,
                        coalescedInto: nil, recordedAt: t + 3, sendID: send.sendID))
            #expect(try await store.deliveries(activityID: "b", limit: 10).map(\.apnsUniqueID) == ["unique-b"])
            #expect(try await store.deliveries(activityID: "d", limit: 10).map(\.outcome) == [.rejected], "d's own row, once")
            let progress = try #require(try await store.groupSend(id: send.sendID)).progress
            #expect(progress.sent == 3 && progress.failed == 1)
            let tallies = try await store.deliveryTallies(since: t)
            #expect(tallies.first { $0.outcome == .accepted && $0.reason == nil }?.count == 3)
            #expect(try await store.deliveryTallies(since: t + 4).isEmpty)
            let stored = try #require(try await store.activity(id: "c"))
            #expect(stored.lastContentState == ["score": 7] && stored.lastTimestamp == t)
        }
    }

    /// The page record is found through the activity's groups: one that joined after the page (its id in
    /// the page's range) gets nothing; one that leaves the group keeps its pushes, listed once when it
    /// comes back; a newer row of its own comes first.
    @Test(arguments: StoreKind.available)
    func membershipChangesKeepTheHistoryExact(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let send = try await Self.partyWithItsFirstPageRecorded(store, at: t)
            _ = try await store.register(Fixture.registration("bb", groups: ["party"], at: t + 10))
            #expect(try await store.deliveries(activityID: "bb", limit: 10).isEmpty)

            let token = try #require(try await store.activity(id: "a")).pushToken
            _ = try await store.register(Fixture.registration("a", token: token, groups: [], at: t + 11))
            #expect(try await store.deliveries(activityID: "a", limit: 10).map(\.sendID) == [send.sendID])
            _ = try await store.register(Fixture.registration("a", token: token, groups: ["party"], at: t + 12))
            #expect(try await store.deliveries(activityID: "a", limit: 10).map(\.sendID) == [send.sendID])

            let later = GroupSendConformanceTests.send("party", at: t + 20)
            try await store.createGroupSend(later)
            let page = try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 21, lease: 30))
            var outcome = GroupSendPageOutcome()
            outcome.records = [GroupSendConformanceTests.record(page, "a", .rejected, at: t + 22)]
            #expect(try await store.completePage(page, owner: "w", outcome: outcome, at: t + 23).held)
            let history = try await store.deliveries(activityID: "a", limit: 10)
            #expect(history.map(\.sendID) == [later.sendID, send.sendID])
            #expect(history.map(\.outcome) == [.rejected, .accepted])
            #expect(try await store.deliveries(activityID: "a", limit: 1).map(\.sendID) == [later.sendID])
        }
    }
}
