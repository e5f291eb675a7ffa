import Foundation
import LiveActivity
import Testing

@testable import LivePushServer

/// The answers' JSON, byte for byte as the server has always written it (the contract, the generated client
/// and the fuzz run rely on it): keys as the API spells them (`activityId`, `pushIds`), sorted, ISO 8601
/// dates, absent optionals left out, and the keys of data (content-state, rates by outcome) as they came.
@Suite struct ResponseBodiesTests {
    private static let at = Date(timeIntervalSince1970: 1_777_636_800)
    private static let later = Date(timeIntervalSince1970: 1_777_640_400)

    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try APIResponse.encoder().encode(value), as: UTF8.self)
    }

    private static let activity = ActivityView(
        activityID: "a1", pushToken: "abcd…ef01", bundleID: "com.example.app", attributesType: "Adventure", environment: "sandbox",
        userID: "u1", groups: ["party"], frequentPushesEnabled: true, state: "ended",
        token: .init(valid: false, reason: "BadDeviceToken", at: at), registeredAt: at, updatedAt: later, startedAt: at, endedAt: later,
        dismissalDate: later, lastContentState: .object(["heroID": .string("panda"), "health": .number(0.941), "level": .number(3)]),
        lastTimestamp: later)

    private static let delivery = DeliveryView(
        pushID: "p1", kind: "update", acceptedAt: at, sentAt: later, priority: 5, requestedPriority: 10, downgradeReason: "budget",
        apnsID: "p1", status: 200, outcome: "accepted", reason: nil, attempts: 1, coalescedInto: "p2", sendID: "s1", apnsUniqueID: "u-1")

    private static let pending = PendingView(
        pushID: "p3", kind: "end", acceptedAt: at, priority: 10, downgradeReason: nil, attempts: 2, nextAttemptAt: later, lastError: "timeout")

    private static let pushToStart = PushToStartView(
        id: "t1", userID: "u1", deviceID: "d1", bundleID: "com.example.app", attributesType: "Adventure", environment: "production",
        token: "abcd…ef01", valid: true, updatedAt: at, source: "stream", refreshedAt: later)

    private static let channel = ChannelView(
        id: "c1", name: "match", bundleID: "com.example.app", apnsChannelID: "Y2hhbm5lbA==", storagePolicy: 1, groupID: "party",
        createdAt: at, deletedAt: nil)

    @Test func activityViews() throws {
        #expect(
            try json(Self.activity)
                == #"{"activityId":"a1","attributesType":"Adventure","bundleId":"com.example.app","dismissalDate":"2026-05-01T13:00:00Z","endedAt":"2026-05-01T13:00:00Z","environment":"sandbox","frequentPushesEnabled":true,"groups":["party"],"lastContentState":{"health":0.941,"heroID":"panda","level":3},"lastTimestamp":"2026-05-01T13:00:00Z","pushToken":"abcd…ef01","registeredAt":"2026-05-01T12:00:00Z","startedAt":"2026-05-01T12:00:00Z","state":"ended","token":{"at":"2026-05-01T12:00:00Z","reason":"BadDeviceToken","valid":false},"updatedAt":"2026-05-01T13:00:00Z","userId":"u1"}"#
        )
        #expect(
            try json(ActivityDetail(activity: Self.activity, deliveries: [Self.delivery], pending: [Self.pending]))
                == #"{"activity":"#
                + (try json(Self.activity)) + #","deliveries":["# + (try json(Self.delivery)) + #"],"pending":["#
                + (try json(Self.pending)) + "]}")
        #expect(
            try json(Self.delivery)
                == #"{"acceptedAt":"2026-05-01T12:00:00Z","apnsId":"p1","apnsUniqueId":"u-1","attempts":1,"coalescedInto":"p2","downgradeReason":"budget","kind":"update","outcome":"accepted","priority":5,"pushId":"p1","requestedPriority":10,"sendId":"s1","sentAt":"2026-05-01T13:00:00Z","status":200}"#
        )
        #expect(
            try json(Self.pending)
                == #"{"acceptedAt":"2026-05-01T12:00:00Z","attempts":2,"kind":"end","lastError":"timeout","nextAttemptAt":"2026-05-01T13:00:00Z","priority":10,"pushId":"p3"}"#
        )
    }

    @Test func tokenAndIdentityViews() throws {
        #expect(
            try json(Self.pushToStart)
                == #"{"attributesType":"Adventure","bundleId":"com.example.app","deviceId":"d1","environment":"production","id":"t1","refreshedAt":"2026-05-01T13:00:00Z","source":"stream","token":"abcd…ef01","updatedAt":"2026-05-01T12:00:00Z","userId":"u1","valid":true}"#
        )
        #expect(
            try json(AppTokenView(token: "lp_x", userID: "u1", expiresAt: Self.at))
                == #"{"expiresAt":"2026-05-01T12:00:00Z","token":"lp_x","userId":"u1"}"#)
        #expect(
            try json(InstallationView(installationID: "i1", token: "lp_y", expiresAt: Self.at))
                == #"{"expiresAt":"2026-05-01T12:00:00Z","installationId":"i1","token":"lp_y"}"#)
        #expect(try json(SignOutView(userID: "u1", pushToStartTokensReleased: 2)) == #"{"pushToStartTokensReleased":2,"userId":"u1"}"#)
        #expect(try json(ReleasedPushToStartTokensView(deviceID: "d1", released: 3)) == #"{"deviceId":"d1","released":3}"#)
    }

    @Test func sendViews() throws {
        let accepted = AcceptedPushes(
            pushIDs: ["p1", "p2"], coalesced: [.init(replaced: "p0", by: "p1")], downgraded: [.init(pushID: "p2", reason: "budget")],
            skipped: [
                .init(activityID: "a9", pushToStartTokenID: nil, reason: "ended"),
                .init(activityID: nil, pushToStartTokenID: "t9", reason: "invalid"),
            ])
        #expect(
            try json(accepted)
                == #"{"coalesced":[{"by":"p1","replaced":"p0"}],"downgraded":[{"pushId":"p2","reason":"budget"}],"pushIds":["p1","p2"],"skipped":[{"activityId":"a9","reason":"ended"},{"pushToStartTokenId":"t9","reason":"invalid"}]}"#
        )
        #expect(try json(AcceptedPushes()) == #"{"coalesced":[],"downgraded":[],"pushIds":[],"skipped":[]}"#)
        let send = GroupSendView(
            sendID: "s1", groupID: "party", kind: "update", state: "sending", acceptedAt: Self.at, finishedAt: nil,
            counts: .init(targeted: 8, sent: 1, failed: 1, downgraded: 1, coalesced: 1, skipped: 1, retrying: 1, pending: 2),
            broadcastPushIDs: ["b1"])
        #expect(
            try json(send)
                == #"{"acceptedAt":"2026-05-01T12:00:00Z","broadcastPushIds":["b1"],"counts":{"coalesced":1,"downgraded":1,"failed":1,"pending":2,"retrying":1,"sent":1,"skipped":1,"targeted":8},"groupId":"party","kind":"update","sendId":"s1","state":"sending"}"#
        )
        #expect(
            try json(ConsoleSendList(sends: [send], next: "n1", broadcasts: []))
                == #"{"broadcasts":[],"next":"n1","sends":["# + (try json(send)) + "]}")
    }

    @Test func channelViews() throws {
        let channelJSON =
            #"{"apnsChannelId":"Y2hhbm5lbA==","bundleId":"com.example.app","createdAt":"2026-05-01T12:00:00Z","groupId":"party","id":"c1","name":"match","storagePolicy":1}"#
        #expect(try json(Self.channel) == channelJSON)
        #expect(try json(ChannelList(channels: [Self.channel], limit: 10_000)) == #"{"channels":["# + channelJSON + #"],"limit":10000}"#)
        #expect(
            try json(ChannelDetail(channel: Self.channel, deliveries: [Self.delivery]))
                == #"{"channel":"# + channelJSON + #","deliveries":["# + (try json(Self.delivery)) + "]}")
    }

    @Test func consoleViews() throws {
        let overview = ConsoleOverviewView(
            at: Self.at, pushesPerSecond: ["accepted": 1.5], failures: [.init(reason: "BadDeviceToken", count: 2, remedy: "ask again")],
            downgradesLastHour: 1, outboxDepth: 2, openGroupSends: 3, webhookDepth: 4,
            channels: [.init(bundleID: "com.example.app", count: 5, limit: 10_000)],
            instances: [.init(instanceID: "i1", thisInstance: true, outbox: 1, groupPages: 2, webhooks: 3, leaseUntil: Self.later)])
        #expect(
            try json(overview)
                == #"{"at":"2026-05-01T12:00:00Z","channels":[{"bundleId":"com.example.app","count":5,"limit":10000}],"downgradesLastHour":1,"failures":[{"count":2,"reason":"BadDeviceToken","remedy":"ask again"}],"instances":[{"groupPages":2,"instanceId":"i1","leaseUntil":"2026-05-01T13:00:00Z","outbox":1,"thisInstance":true,"webhooks":3}],"openGroupSends":3,"outboxDepth":2,"pushesPerSecond":{"accepted":1.5},"webhookDepth":4}"#
        )
        let broadcasts = ConsoleBroadcastsView(
            channelID: "c1", name: "match", bundleID: "com.example.app", groupID: nil, pending: [Self.pending], deliveries: [])
        #expect(
            try json(broadcasts)
                == #"{"bundleId":"com.example.app","channelId":"c1","deliveries":[],"name":"match","pending":["# + (try json(Self.pending)) + "]}")
        let found = ConsoleActivityView(
            activity: Self.activity, tokenSince: Self.at, tokenAgeSeconds: 60, deliveries: [Self.delivery], pending: [],
            fromConsole: ["p1"], pushToStartTokens: [.init(token: Self.pushToStart, ageSeconds: 7, stale: false)],
            budget: .init(used: 1, limit: 3, left: 2))
        #expect(
            try json(found)
                == #"{"activity":"# + (try json(Self.activity)) + #","budget":{"left":2,"limit":3,"used":1},"consolePushIds":["p1"],"deliveries":["#
                + (try json(Self.delivery))
                + #"],"pending":[],"pushToStartTokens":[{"ageSeconds":7,"stale":false,"token":"# + (try json(Self.pushToStart))
                + #"}],"tokenAgeSeconds":60,"tokenSince":"2026-05-01T12:00:00Z"}"#)
        #expect(
            try json(ConsoleActivityList(activities: [Self.activity], next: nil)) == #"{"activities":["# + (try json(Self.activity)) + "]}")
    }

    @Test func refusalsNameANullField() throws {
        #expect(
            try json(JSONErrorBody(error: .init(field: nil, rule: "encoding", message: "m")))
                == #"{"error":{"field":null,"message":"m","rule":"encoding"}}"#)
    }
}
