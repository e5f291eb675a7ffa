import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

/// The console's charts and a group send's members: what the store reads from the delivery history.
@Suite("PushStore conformance: the console's series and send members")
struct ConsoleSeriesConformanceTests {
    /// A minute's start (Fixture.start is not one).
    static let minute = Date(timeIntervalSince1970: 1_750_000_020)

    /// Enqueues an update to `activityID` accepted at `accepted`, claims it and records `outcome` at `recorded`.
    static func deliver(
        _ store: any PushStore, _ activityID: String, accepted: Date, recorded: Date, _ outcome: DeliveryOutcome, reason: String? = nil
    ) async throws {
        // A routine update: the test's pushes go one at a time, so none replaces another.
        let item = Fixture.update(activityID, at: accepted)
        _ = try await store.enqueue([item])
        #expect(try await store.claim(owner: "w", limit: 10, now: accepted, lease: 3600).map(\.pushID) == [item.pushID])
        try await store.complete(
            DeliveryResult(
                pushID: item.pushID, outcome: outcome, sentAt: recorded, status: outcome == .accepted ? 200 : 410,
                reason: reason, attempts: 1),
            owner: "w", at: recorded)
    }

    @Test(arguments: StoreKind.available)
    func theSeriesCountsOutcomesAndLatenciesMinuteByMinute(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Self.minute
            _ = try await store.register(Fixture.registration("a", at: t - 600))
            // Before the series: not counted.
            try await Self.deliver(store, "a", accepted: t - 2, recorded: t - 1, .accepted)
            // Minute 0: one accepted 50 ms after its acceptance.
            try await Self.deliver(store, "a", accepted: t + 1, recorded: t + 1.05, .accepted)
            // Minute 1: one refused after a minute.
            try await Self.deliver(store, "a", accepted: t + 2, recorded: t + 62, .rejected, reason: "Unregistered")
            // Minute 2: a group page of two pushes accepted as planned, 10 s after the send's acceptance, and one
            // coalesced (no latency: never sent).
            for id in ["b", "c", "d"] { _ = try await store.register(Fixture.registration(id, groups: ["party"], at: t - 600)) }
            let send = GroupSendConformanceTests.send("party", at: t + 120)
            try await store.createGroupSend(send)
            let page = try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 121, lease: 30))
            var outcome = GroupSendPageOutcome()
            outcome.accepted.append(activityID: "b", apnsUniqueID: nil, sentAt: t + 125)
            outcome.accepted.append(activityID: "c", apnsUniqueID: nil, sentAt: t + 125)
            outcome.records = [GroupSendConformanceTests.record(page, "d", .coalesced, at: t + 130)]
            #expect(try await store.completePage(page, owner: "w", outcome: outcome, at: t + 130).held)
            // After the series (minute 3): not counted.
            try await Self.deliver(store, "a", accepted: t + 181, recorded: t + 182, .failed)

            let series = try await store.deliverySeries(since: t, minutes: 3)
            #expect(series.map(\.start) == [t, t + 60, t + 120])
            #expect(series.map(\.counts) == [[.accepted: 1], [.rejected: 1], [.accepted: 2, .coalesced: 1]])
            #expect(series.map(\.latency.total) == [1, 1, 2], "coalesced pushes have no latency")
            let fifty = try #require(series[0].latency.percentile(0.5))
            #expect(fifty > 0.039 && fifty < 0.0502, "50 ms, within its bucket: \(fifty)")
            let minuteLate = try #require(series[1].latency.percentile(0.99))
            #expect(minuteLate > 50 && minuteLate < 63.1, "60 s, within its bucket: \(minuteLate)")
            let page10 = try #require(series[2].latency.percentile(0.5))
            #expect(page10 >= 10 && page10 < 12.6, "the page's 10 s: \(page10)")
            #expect(try await store.deliverySeries(since: t + 600, minutes: 2).allSatisfy { $0.counts.isEmpty && $0.latency.total == 0 })
            #expect(await caught { try await store.deliverySeries(since: t, minutes: 0) }?.invalidField == "minutes")
            #expect(await caught { try await store.deliverySeries(since: t, minutes: 1441) }?.invalidField == "minutes")
        }
    }

    /// Of a group send's members: the failed one with its record; the skipped ones (ended, without a valid
    /// token) as they are stored; neither the members it reached (one of them ended since) nor a member
    /// registered after the send.
    @Test(arguments: StoreKind.available)
    func aGroupSendsFailedAndSkippedMembersAreListed(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Self.minute
            var tokens: [String: DeviceToken] = [:]
            for id in ["a", "b", "c", "d", "e"] {
                let token = Fixture.token()
                tokens[id] = token
                _ = try await store.register(Fixture.registration(id, token: token, groups: ["crew"], at: t))
            }
            _ = try await store.markEnded(activityID: "d", at: t + 1, dismissalDate: nil)
            _ = try await store.markTokenInvalid(token: try #require(tokens["e"]), reason: "BadDeviceToken", at: t + 1)
            let send = GroupSendConformanceTests.send("crew", at: t + 2)
            try await store.createGroupSend(send)
            let untouched = try #require(try await store.groupSendMembers(sendID: send.sendID, limit: 10))
            #expect(untouched.failed.isEmpty && untouched.skipped.isEmpty, "no member handed out yet: none is skipped")

            let page = try #require(try await store.claimPage(owner: "w", pageSize: 10, now: t + 3, lease: 30))
            var outcome = GroupSendPageOutcome()
            outcome.accepted.append(activityID: "a", apnsUniqueID: nil, sentAt: t + 4)
            outcome.accepted.append(activityID: "b", apnsUniqueID: nil, sentAt: t + 4)
            var refused = GroupSendConformanceTests.record(page, "c", .rejected, at: t + 4)
            refused.status = 410
            refused.reason = "Unregistered"
            outcome.records = [refused]
            outcome.skipped = 2
            #expect(try await store.completePage(page, owner: "w", outcome: outcome, at: t + 5).held)
            _ = try await store.markEnded(activityID: "b", at: t + 6, dismissalDate: nil)
            _ = try await store.register(Fixture.registration("f", groups: ["crew"], at: t + 7))
            _ = try await store.markEnded(activityID: "f", at: t + 8, dismissalDate: nil)

            let members = try #require(try await store.groupSendMembers(sendID: send.sendID, limit: 10))
            #expect(members.failed.map { [$0.activityID, $0.reason] } == [["c", "Unregistered"]])
            #expect(members.skipped.map(\.activityID) == ["d", "e"])
            #expect(members.skipped.map(\.state) == [.ended, .active])
            #expect(try await store.groupSendMembers(sendID: send.sendID, limit: 1)?.skipped.map(\.activityID) == ["d"])
            #expect(try await store.groupSendMembers(sendID: UUID(), limit: 10) == nil)
            #expect(await caught { try await store.groupSendMembers(sendID: send.sendID, limit: 0) }?.invalidField == "limit")
        }
    }

    @Test func aPercentileIsReadWithinItsBucket() {
        var histogram = LatencyHistogram()
        #expect(histogram.percentile(0.5) == nil)
        for _ in 0..<99 { histogram.add(bucket: LatencyHistogram.bucket(of: 0.02), count: 1) }
        histogram.add(bucket: LatencyHistogram.bucket(of: 3), count: 1)
        let p50 = histogram.percentile(0.5) ?? 0
        let p99 = histogram.percentile(0.99) ?? 0
        let p100 = histogram.percentile(1) ?? 0
        #expect(p50 >= 0.0199 && p50 < 0.0252, "\(p50)")
        #expect(p99 >= 0.0199 && p99 < 0.0252, "99 of 100 are 20 ms: \(p99)")
        #expect(p100 >= 2.5 && p100 < 3.17, "the slowest is 3 s: \(p100)")
        #expect(LatencyHistogram.bucket(of: 0) == 0 && LatencyHistogram.bucket(of: 1e9) == LatencyHistogram.bounds.count)
    }
}
