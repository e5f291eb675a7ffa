import APNsCore
import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: the console's reads")
struct ConsoleConformanceTests {
    /// Every page of a query, following the cursor (the last id of each page).
    static func allPages(_ store: any PushStore, _ query: ActivityPageQuery) async throws -> [[String]] {
        var pages: [[String]] = []
        var query = query
        while true {
            let page = try await store.activityPage(query).map(\.activityID)
            if page.isEmpty { return pages }
            pages.append(page)
            query.after = page.last
        }
    }

    @Test(arguments: StoreKind.available)
    func activitiesArePagedByIdForAllAUserAndAGroup(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            // Ids that sort differently from their insertion order, some with characters a URL would escape.
            let ids = ["m/3", "a 1", "z-9", "b&2", "c?7", "k", "e#5"]
            for (index, id) in ids.enumerated() {
                _ = try await store.register(
                    Fixture.registration(id, user: index % 2 == 0 ? "even" : "odd", groups: index < 4 ? ["first-four"] : []))
            }
            let every = try await Self.allPages(store, ActivityPageQuery(limit: 3))
            #expect(every.map(\.count) == [3, 3, 1])
            #expect(every.flatMap { $0 } == every.flatMap { $0 }.sorted(), "ordered by id across pages")
            #expect(Set(every.flatMap { $0 }) == Set(ids))
            let even = try await Self.allPages(store, ActivityPageQuery(userID: "even", limit: 2)).flatMap { $0 }
            #expect(Set(even) == Set(ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)))
            #expect(even == even.sorted())
            let group = try await Self.allPages(store, ActivityPageQuery(groupID: "first-four", limit: 3)).flatMap { $0 }
            #expect(Set(group) == Set(ids.prefix(4)))
            #expect(try await store.activityPage(ActivityPageQuery(userID: "nobody", limit: 3)).isEmpty)
            #expect(await caught { try await store.activityPage(ActivityPageQuery(limit: 0)) }?.invalidField == "limit")
            #expect(await caught { try await store.activityPage(ActivityPageQuery(limit: 501)) }?.invalidField == "limit")
            let evenInGroup = try await Self.allPages(store, ActivityPageQuery(userID: "even", groupID: "first-four", limit: 1)).flatMap { $0 }
            #expect(evenInGroup == [ids[0], ids[2]].sorted(), "a user's activities in a group")
        }
    }

    @Test(arguments: StoreKind.available)
    func groupSendsArePagedNewestFirstWithTheirCounts(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var sends: [GroupSend] = []
            for offset in 0..<5 {
                let send = GroupSendConformanceTests.send("group-\(offset)", at: Fixture.start + Double(offset % 3))
                try await store.createGroupSend(send)
                sends.append(send)
            }
            var seen: [UUID] = []
            var cursor: GroupSendCursor?
            while true {
                let page = try await store.groupSendPage(before: cursor, limit: 2)
                if page.isEmpty { break }
                seen += page.map(\.sendID)
                cursor = page.last.map { GroupSendCursor(acceptedAt: $0.acceptedAt, sendID: $0.sendID) }
            }
            let expected = sends.sorted { ($0.acceptedAt, $0.sendID.uuidString.lowercased()) > ($1.acceptedAt, $1.sendID.uuidString.lowercased()) }
            #expect(seen == expected.map(\.sendID), "newest first, ties by id, each once")
            #expect(try await store.openGroupSendCount() == 5)
        }
    }

    /// The console's record of a test push goes when the activity's history is forgotten (the lifecycle
    /// sweep's retention), and only then.
    @Test(arguments: StoreKind.available)
    func consolePushesAreForgottenWithTheirActivitysHistory(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            var pushes: [String: UUID] = [:]
            for id in ["kept", "gone"] {
                _ = try await store.register(Fixture.registration(id, at: t))
                let update = Fixture.update(id, at: t)
                pushes[id] = update.pushID
                _ = try await store.enqueue([update])
            }
            for item in try await store.claim(owner: "w", limit: 10, now: t, lease: 30) {
                try await store.complete(
                    DeliveryResult(pushID: item.pushID, outcome: .accepted, sentAt: t, status: 200, attempts: 1), owner: "w", at: t)
            }
            let both = [try #require(pushes["kept"]), try #require(pushes["gone"])]
            try await store.recordConsolePushes(both, sentBy: "operator:on-call", at: t)
            _ = try await store.markEnded(activityID: "gone", at: t + 1, dismissalDate: nil)
            #expect(try await store.forgetEnded(before: t + 2) == 1)
            #expect(try await store.deliveries(activityID: "gone", limit: 10).isEmpty)
            #expect(try await store.consolePushes(among: both) == [both[0]], "the forgotten activity's console push goes, the other stays")
        }
    }

    @Test(arguments: StoreKind.available)
    func talliesCountsAndConsolePushes(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.register(Fixture.registration("match"))
            var downgraded = Fixture.update("match", score: 1, importance: .timeSensitive, at: t)
            downgraded.priority = .conservesPower
            downgraded.downgradeReason = "budget"
            let refused = Fixture.update("match", score: 2, importance: .timeSensitive, at: t)
            _ = try await store.enqueue([downgraded, refused])
            #expect(try await store.claim(owner: "w", limit: 10, now: t, lease: 30).count == 2)
            try await store.complete(
                DeliveryResult(pushID: downgraded.pushID, outcome: .accepted, sentAt: t, status: 200, attempts: 1), owner: "w", at: t + 1)
            try await store.complete(
                DeliveryResult(pushID: refused.pushID, outcome: .rejected, sentAt: t, status: 400, reason: "BadDeviceToken", attempts: 1), owner: "w",
                at: t + 2)
            let tallies = try await store.deliveryTallies(since: t)
            #expect(tallies.first { $0.outcome == .accepted }.map { [$0.count, $0.downgraded] } == [1, 1])
            #expect(tallies.first { $0.outcome == .rejected }?.reason == "BadDeviceToken")
            #expect(try await store.deliveryTallies(since: t + 1.5).map(\.outcome) == [.rejected], "only what was written since")

            try await store.recordConsolePushes([refused.pushID], sentBy: "operator:development", at: t)
            #expect(try await store.consolePushes(among: [downgraded.pushID, refused.pushID]) == [refused.pushID])
            #expect(try await store.consolePushes(among: []).isEmpty)

            _ = try await store.consumeHighPriority([(activityID: "match", limit: 5)], at: t)
            #expect(try await store.priority10Count(activityID: "match", after: t - 3600) == 1)
            #expect(try await store.priority10Count(activityID: "match", after: t) == 0)

            _ = try await store.createChannel(ChannelConformanceTests.channel("one"))
            _ = try await store.createChannel(ChannelConformanceTests.channel("two"))
            _ = try await store.createChannel(ChannelConformanceTests.channel("three", bundle: "com.example.other"))
            #expect(try await store.channelCounts() == ["com.example.app": 2, "com.example.other": 1])
        }
    }

    /// Each list the console pages reads an index, never the whole table (SQLite's query plan says which).
    @Test func everyConsoleListReadsAnIndex() async throws {
        try await withStore(.sqlite) { store, _ in
            let sql = try #require(store as? SQLPushStore)
            let plans: [(String, [SQLValue], String)] = [
                (
                    "SELECT * FROM activities WHERE activity_id > ? ORDER BY activity_id LIMIT ?", [.text(""), .int(50)],
                    "sqlite_autoindex_activities"
                ),
                (
                    "SELECT * FROM activities WHERE user_id = ? AND activity_id > ? ORDER BY activity_id LIMIT ?", [.text("u"), .text(""), .int(50)],
                    "activities_user_id"
                ),
                (
                    """
                    SELECT a.* FROM activity_groups g JOIN activities a ON a.activity_id = g.activity_id
                    WHERE g.group_name = ? AND g.activity_id > ? ORDER BY g.activity_id LIMIT ?
                    """, [.text("g"), .text(""), .int(50)], "sqlite_autoindex_activity_groups"
                ),
                (
                    "SELECT * FROM group_sends WHERE (accepted_at, send_id) < (?, ?) ORDER BY accepted_at DESC, send_id DESC LIMIT ?",
                    [.real(1), .text("x"), .int(50)], "group_sends_accepted"
                ),
                // Audience starts, newest first, as group sends.
                ("SELECT * FROM audience_starts ORDER BY accepted_at DESC, send_id DESC LIMIT ?", [.int(50)], "audience_starts_accepted"),
                (
                    "SELECT * FROM audience_starts WHERE (accepted_at, send_id) < (?, ?) ORDER BY accepted_at DESC, send_id DESC LIMIT ?",
                    [.real(1), .text("x"), .int(50)], "audience_starts_accepted"
                ),
                // The push-to-start budget's reservations of a device.
                (
                    "SELECT token_id AS target_id, push_id FROM push_to_start_reservations WHERE reserved_at >= ? AND token_id IN (?, ?)",
                    [.real(1), .text("a"), .text("b")], "push_to_start_reservations_token"
                ),
                (
                    "SELECT outcome, reason, COUNT(*) AS n FROM deliveries WHERE recorded_at >= ? GROUP BY outcome, reason", [.real(1)],
                    "deliveries_recorded"
                ),
                // The overview's instances: who holds leases (the webhook queue, small, has no owner index).
                (
                    "SELECT claim_owner, COUNT(*) AS n, MAX(claim_until) AS until FROM outbox WHERE claim_owner IS NOT NULL AND claim_until > ? GROUP BY claim_owner ORDER BY claim_owner",
                    [.real(1)], "outbox_claim_owner"
                ),
                (
                    "SELECT claim_owner, COUNT(*) AS n, MAX(claim_until) AS until FROM group_send_pages WHERE claim_owner IS NOT NULL AND claim_until > ? GROUP BY claim_owner ORDER BY claim_owner",
                    [.real(1)], "group_send_pages_owner"
                ),
                // An activity's token age, and a channel's broadcasts.
                ("SELECT MAX(retired_at) AS at FROM retired_tokens WHERE activity_id = ?", [.text("a")], "retired_tokens_activity"),
                ("SELECT * FROM outbox WHERE target_id = ? AND target_kind = 'channel' ORDER BY accepted_at, push_id", [.text("c")], "outbox_target"),
                (
                    "SELECT * FROM deliveries WHERE target_id = ? AND target_kind = 'channel' ORDER BY accepted_at DESC, recorded_at DESC, push_id DESC LIMIT ?",
                    [.text("c"), .int(5)], "deliveries_target"
                ),
            ]
            for (statement, binds, index) in plans {
                let plan = try await sql.backend.read { session throws(PushStoreError) in
                    var details: [String] = []
                    for row in try await session.query("EXPLAIN QUERY PLAN " + statement, binds) { details.append(try row.string("detail")) }
                    return details
                }
                #expect(plan.contains { $0.contains(index) }, "\(statement): \(plan)")
                #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }, "\(statement) scans a table: \(plan)")
            }
        }
    }
}
