import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: group sends")
struct GroupSendConformanceTests {
    static func send(_ group: String, kind: LiveActivityEvent = .update, importance: PushImportance = .routine, at: Date = Fixture.start)
        -> GroupSend
    {
        GroupSend(
            groupID: group, kind: kind,
            template: SendTemplate(
                payload: Fixture.payload(7), timestamp: at, requestedPriority: .conservesPower, importance: importance, expiration: at + 3600),
            dismissalDate: kind == .end ? at + 600 : nil, acceptedAt: at,
            createdBy: "backend")
    }

    static func record(_ page: GroupSendPage, _ activityID: String, _ outcome: DeliveryOutcome, at: Date) -> DeliveryRecord {
        DeliveryRecord(
            pushID: UUID(), target: .activity(id: activityID), kind: page.send.kind, acceptedAt: page.send.acceptedAt, sentAt: at,
            priority: .conservesPower, requestedPriority: .conservesPower, downgradeReason: nil, apnsID: nil, status: 200,
            reason: nil, attempts: 1, outcome: outcome, coalescedInto: nil, recordedAt: at, sendID: page.send.sendID)
    }

    /// A group of five in pages of two: three pages, each member once, in id order; the send is finished
    /// when the last page is recorded, with every count.
    @Test(arguments: StoreKind.available)
    func pagesCoverEveryMemberOnceAndTheSendFinishes(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for id in ["e", "a", "d", "b", "c"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
            _ = try await store.register(Fixture.registration("other", groups: ["elsewhere"]))
            #expect(try await store.groupHasMembers("party"))
            #expect(try await !store.groupHasMembers("nobody"))
            let send = Self.send("party")
            try await store.createGroupSend(send)
            #expect(await caught { try await store.createGroupSend(send) }?.isConflict == true, "an id is used once")

            var seen: [String] = []
            var pages: [GroupSendPage] = []
            while let page = try await store.claimPage(owner: "w1", pageSize: 2, now: t + 1, lease: 30) {
                seen += page.activities.map(\.activityID)
                pages.append(page)
            }
            #expect(seen == ["a", "b", "c", "d", "e"])
            #expect(pages.map(\.firstID) == ["a", "c", "e"])
            let handedOut = try #require(try await store.groupSend(id: send.sendID))
            #expect(handedOut.progress.targeted == 5 && handedOut.expanded && handedOut.finishedAt == nil)

            for page in pages {
                var outcome = GroupSendPageOutcome()
                outcome.records = page.activities.map { Self.record(page, $0.activityID, $0.activityID == "b" ? .rejected : .accepted, at: t + 2) }
                outcome.contentStates = page.activities.map { ($0.activityID, t) }
                outcome.contentState = ["score": 7]
                outcome.downgraded = page.firstID == "a" ? 1 : 0
                let report = try await store.completePage(page, owner: "w1", outcome: outcome, at: t + 3)
                #expect(report.held)
            }
            let finished = try #require(try await store.groupSend(id: send.sendID))
            #expect(finished.progress == GroupSendProgress(targeted: 5, sent: 4, failed: 1, downgraded: 1))
            #expect(finished.finishedAt == t + 3)
            let a = try #require(try await store.activity(id: "a"))
            #expect(a.lastContentState == ["score": 7] && a.lastTimestamp == t && a.lastAcceptedAt == t)
            #expect(try await store.deliveries(activityID: "c", limit: 5).first?.sendID == send.sendID)
            #expect(try await store.claimPage(owner: "w1", pageSize: 2, now: t + 4, lease: 30) == nil)
        }
    }

    /// A page whose worker died is claimed again when its lease ends (or at once when its owner releases
    /// it on restart); the late worker's record is refused and writes nothing.
    @Test(arguments: StoreKind.available)
    func anAbandonedPageIsClaimedAgainAndTheLateRecordIsRefused(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for id in ["a", "b", "c"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
            let send = Self.send("party")
            try await store.createGroupSend(send)
            let first = try #require(try await store.claimPage(owner: "dead", pageSize: 2, now: t, lease: 30))
            let second = try #require(try await store.claimPage(owner: "live", pageSize: 2, now: t + 1, lease: 30))
            #expect(first.activities.map(\.activityID) == ["a", "b"] && second.activities.map(\.activityID) == ["c"])
            #expect(try await store.claimPage(owner: "live", pageSize: 2, now: t + 2, lease: 30) == nil, "held pages are not handed out")

            let again = try #require(try await store.claimPage(owner: "live", pageSize: 2, now: t + 31, lease: 30), "the lease ended")
            #expect(again.firstID == "a" && again.lastID == "b" && again.activities.map(\.activityID) == ["a", "b"])
            let late = try await store.completePage(first, owner: "dead", outcome: GroupSendPageOutcome(), at: t + 32)
            #expect(!late.held)

            // A restarted owner releases its pages: claimable at once by anyone.
            #expect(try await store.releasePages(owner: "live") == 2)
            #expect(try await store.claimPage(owner: "other", pageSize: 2, now: t + 33, lease: 30) != nil)
            #expect(try await store.claimPage(owner: "other", pageSize: 2, now: t + 33, lease: 30) != nil)
            #expect(try await store.claimPage(owner: "other", pageSize: 2, now: t + 33, lease: 30) == nil)
            #expect(try await store.groupSend(id: send.sendID)?.progress.targeted == 3, "a page claimed again is not counted twice")
        }
    }

    /// A worker still sending its page renews the claim: the page is not handed out when the first lease
    /// would have ended; a renewal by anyone else, or after the page is recorded, is refused.
    @Test(arguments: StoreKind.available)
    func aRenewedPageIsNotHandedOutAgain(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for id in ["a", "b"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
            try await store.createGroupSend(Self.send("party"))
            let page = try #require(try await store.claimPage(owner: "slow", pageSize: 10, now: t, lease: 30))
            #expect(try await store.renewPage(page, owner: "slow", until: t + 50))
            #expect(try await !store.renewPage(page, owner: "thief", until: t + 90), "only the holder renews")
            #expect(try await store.claimPage(owner: "other", pageSize: 10, now: t + 31, lease: 30) == nil, "renewed past its first lease")
            let taken = try #require(try await store.claimPage(owner: "other", pageSize: 10, now: t + 50, lease: 30), "the renewed lease ended")
            #expect(taken.firstID == page.firstID)
            #expect(try await !store.renewPage(page, owner: "slow", until: t + 100), "taken over: the late worker is told")
            #expect(try await store.completePage(taken, owner: "other", outcome: GroupSendPageOutcome(), at: t + 51).held)
            #expect(try await !store.renewPage(taken, owner: "other", until: t + 100), "a recorded page is gone")
        }
    }

    /// Retries go to the outbox with the send's id; their outcome there completes the send. An end marks
    /// its members ended (reporting those it took out of `active`), and the records are kept once when a
    /// page is recorded twice.
    @Test(arguments: StoreKind.available)
    func retriesFinishTheSendFromTheOutboxAndEndsEndTheMembers(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for id in ["a", "b"] { _ = try await store.register(Fixture.registration(id, groups: ["party"])) }
            _ = try await store.markEnded(activityID: "b", at: t, dismissalDate: nil)
            let send = Self.send("party", kind: .end, importance: .timeSensitive)
            try await store.createGroupSend(send)
            let page = try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t, lease: 30))
            var retry = OutboxItem(
                target: .activity(id: "a"), kind: .end, payload: Fixture.payload(7), priority: .conservesPower, importance: .timeSensitive,
                acceptedAt: t, attempts: 1, nextAttemptAt: t + 5, lastError: "503", sendID: send.sendID)
            retry.claim = nil
            var outcome = GroupSendPageOutcome()
            outcome.retries = [retry]
            outcome.ended = ["a", "b"]
            outcome.skipped = 0
            let report = try await store.completePage(page, owner: "w", outcome: outcome, at: t + 1)
            #expect(report.held && report.endedNow == ["a"], "b was ended already")
            #expect(try await store.activity(id: "a")?.state == .ended)
            #expect(try await store.activity(id: "a")?.dismissalDate == t + 600)
            var sending = try #require(try await store.groupSend(id: send.sendID))
            #expect(sending.progress.retrying == 1 && sending.finishedAt == nil)
            _ = try await store.claimPage(owner: "w", pageSize: 10, now: t + 2, lease: 30)  // marks it expanded

            let claimed = try await store.claim(owner: "w", limit: 10, now: t + 5, lease: 30)
            #expect(claimed.map(\.pushID) == [retry.pushID] && claimed.first?.sendID == send.sendID)
            _ = try await store.complete(DeliveryResult(pushID: retry.pushID, outcome: .accepted, status: 200, attempts: 2), owner: "w", at: t + 6)
            sending = try #require(try await store.groupSend(id: send.sendID))
            #expect(sending.progress.sent == 1 && sending.progress.retrying == 0)
            #expect(sending.finishedAt == t + 6)
            #expect(try await store.deliveries(activityID: "a", limit: 5).first?.sendID == send.sendID)
        }
    }

    /// A routine update is replaced by a newer routine update to the same group; a time-sensitive one is not.
    @Test(arguments: StoreKind.available)
    func aNewerRoutineUpdateSupersedesAnOlderOne(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.register(Fixture.registration("a", groups: ["party"]))
            let old = Self.send("party", at: t)
            let urgent = Self.send("party", importance: .timeSensitive, at: t + 1)
            let newer = Self.send("party", at: t + 2)
            for send in [old, urgent, newer] { try await store.createGroupSend(send) }
            let pages = [
                try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 3, lease: 30)),
                try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 3, lease: 30)),
                try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 3, lease: 30)),
            ]
            #expect(pages.map(\.send.sendID) == [old.sendID, urgent.sendID, newer.sendID], "oldest first")
            #expect(pages.map(\.supersededBy) == [newer.sendID, nil, nil])
        }
    }
}
