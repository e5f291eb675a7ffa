import APIContract
import APNsCore
import Foundation
import LiveActivity
import LivePushAPITypes
import Testing

@testable import LivePushServer
@testable import PushStore

/// The answers' JSON, byte for byte as the server has always written it (the contract, the generated client
/// and the fuzz run rely on it): the contract's types made from the records, keys sorted, ISO 8601 dates,
/// absent optionals left out, content-state keys as they came and its whole numbers as integers.
@Suite struct SchemasTests {
    private static let at = Date(timeIntervalSince1970: 1_777_636_800)
    private static let later = Date(timeIntervalSince1970: 1_777_640_400)

    /// What the server writes (``JSONValueEncoder``), checked to be what Foundation's JSONEncoder with the API's
    /// settings writes.
    private func json(_ value: some Encodable) throws -> String {
        let written = try JSONValueEncoder.data(value)
        #expect(written == (try APIResponse.encoder().encode(value)), "the server's encoder writes what JSONEncoder writes")
        return String(decoding: written, as: UTF8.self)
    }

    @Test func numbersWithoutAJSONFormAreRefusedAsJSONEncoderRefusesThem() throws {
        struct Reading: Encodable { var value: Double }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.data(Reading(value: .nan)) }
        #expect(throws: EncodingError.self) { try APIResponse.encoder().encode(Reading(value: .infinity)) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.data(Reading(value: .infinity)) }
        #expect(try json(Reading(value: 0.1)) == #"{"value":0.1}"#)
        #expect(try json(Reading(value: 1e20)) == #"{"value":1e+20}"#)
        #expect(try json(Reading(value: -3)) == #"{"value":-3}"#)
    }

    @Test func datesKeepWholeSecondsAndDataIsBase64AsJSONEncoderWritesThem() throws {
        struct Stamp: Encodable {
            var at: Date
            var bytes: Data
            var link: URL
            var floats: [Float]
            var nested: [String: [Int?]]
        }
        let stamp = Stamp(
            at: Date(timeIntervalSince1970: 1_777_636_800.987), bytes: Data([0, 1, 254, 255]), link: URL(string: "https://example.com/a/b?c=d")!,
            floats: [0.1, 1.5, 3], nested: ["b": [1, nil, 3], "a": []])
        #expect(
            try json(stamp)
                == #"{"at":"2026-05-01T12:00:00Z","bytes":"AAH+/w==","floats":[0.1,1.5,3],"link":"https://example.com/a/b?c=d","nested":{"a":[],"b":[1,null,3]}}"#
        )
    }

    /// The batch endpoint's answer, written as its JSON directly, is the contract's `BatchAccepted` byte for byte.
    @Test func aBatchAnswerIsTheContractsBatchAccepted() throws {
        let pushes = (0..<4).map { _ in UUID() }
        let results: [PushService.BatchItemResult] = [
            .accepted(activityID: "a1", pushID: pushes[0], replaced: [], downgrade: nil),
            .accepted(activityID: "caf\u{e9}/\"2\"", pushID: pushes[1], replaced: [pushes[2], pushes[3]], downgrade: "priority budget spent"),
            .refused(activityID: "nobody", .notFound("activityId", "no activity 'nobody' is registered")),
            .refused(activityID: "a1", .invalid("activityId", "duplicate", "activity 'a1' has an earlier item in this batch")),
            .refused(activityID: "a3", .conflict("activityId", "active", "activity 'a3' is ended")),
            .refused(activityID: "a4", .invalid(nil, "internal", "the item was neither accepted nor refused")),
        ]
        let written = try JSONValueEncoder.data(PushBatchBody.answer(results))
        #expect(String(decoding: written, as: UTF8.self) == (try json(Schemas.BatchAccepted(results))))
        #expect(try json(PushBatchBody.answer([])) == #"{"accepted":0,"refused":0,"results":[]}"#)
    }

    private static let token = try! DeviceToken(hex: "abcd" + String(repeating: "00", count: 28) + "ef01")

    private static let activity = try! Schemas.Activity(
        ActivityRecord(
            activityID: "a1", pushToken: token, bundleID: "com.example.app", attributesType: "Adventure", environment: .sandbox, userID: "u1",
            groups: ["party"], frequentPushesEnabled: true, state: .ended, tokenState: .invalid(reason: "BadDeviceToken", at: at),
            registeredAt: at, updatedAt: later, startedAt: at, endedAt: later, dismissalDate: later,
            lastContentState: .object(["heroID": .string("panda"), "health": .number(0.941), "level": .number(3)]), lastTimestamp: later,
            lastAcceptedAt: later))

    private static let delivery = Schemas.Delivery(
        pushId: "p1", kind: .update, acceptedAt: at, sentAt: later, priority: ._5, requestedPriority: ._10, downgradeReason: "budget",
        apnsId: "p1", apnsUniqueId: "u-1", status: 200, outcome: .accepted, reason: nil, attempts: 1, coalescedInto: "p2", sendId: "s1")

    private static let pending = Schemas.Pending(
        pushId: "p3", kind: .end, acceptedAt: at, priority: ._10, downgradeReason: nil, attempts: 2, nextAttemptAt: later, lastError: "timeout")

    private static let pushToStart = Schemas.PushToStartTokenStored(
        id: "t1", userId: "u1", deviceId: "d1", bundleId: "com.example.app", attributesType: "Adventure", environment: .production,
        token: "abcd…ef01", valid: true, updatedAt: at, source: .stream, refreshedAt: later)

    private static let channel = Schemas.Channel(
        id: "c1", name: "match", bundleId: "com.example.app", apnsChannelId: "Y2hhbm5lbA==", storagePolicy: 1, groupId: "party",
        createdAt: at, deletedAt: nil)

    @Test func activityViews() throws {
        #expect(
            try json(Self.activity)
                == #"{"activityId":"a1","attributesType":"Adventure","bundleId":"com.example.app","dismissalDate":"2026-05-01T13:00:00Z","endedAt":"2026-05-01T13:00:00Z","environment":"sandbox","frequentPushesEnabled":true,"groups":["party"],"lastContentState":{"health":0.941,"heroID":"panda","level":3},"lastTimestamp":"2026-05-01T13:00:00Z","pushToken":"abcd…ef01","registeredAt":"2026-05-01T12:00:00Z","startedAt":"2026-05-01T12:00:00Z","state":"ended","token":{"at":"2026-05-01T12:00:00Z","reason":"BadDeviceToken","valid":false},"updatedAt":"2026-05-01T13:00:00Z","userId":"u1"}"#
        )
        // Every optional absent, and a valid token (the answer to a registration).
        let registered = try Schemas.Activity(
            ActivityRecord(
                activityID: "a/2", pushToken: Self.token, bundleID: "com.example.app", attributesType: "Adventure", environment: .production,
                userID: nil, groups: [], frequentPushesEnabled: false, state: .active, tokenState: .valid, registeredAt: Self.at,
                updatedAt: Self.at, startedAt: Self.at, endedAt: nil, dismissalDate: nil, lastContentState: nil, lastTimestamp: nil,
                lastAcceptedAt: nil))
        #expect(
            try json(registered)
                == #"{"activityId":"a/2","attributesType":"Adventure","bundleId":"com.example.app","environment":"production","frequentPushesEnabled":false,"groups":[],"pushToken":"abcd…ef01","registeredAt":"2026-05-01T12:00:00Z","startedAt":"2026-05-01T12:00:00Z","state":"active","token":{"valid":true},"updatedAt":"2026-05-01T12:00:00Z"}"#
        )
        #expect(
            try json(Schemas.ActivityDetail(activity: Self.activity, deliveries: [Self.delivery], pending: [Self.pending]))
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

    static let requiredRegistration =
        #""activityId":"a/1","pushToken":"\#(String(repeating: "ab", count: 32))","bundleId":"com.example.app","attributesType":"Adventure""#
    /// A registration with every member the contract has.
    static let fullRegistration =
        #"{\#(requiredRegistration),"environment":"sandbox","userId":"u1","groups":["a","b"],"frequentPushesEnabled":true,"renews":"a/0","#
        + #""liveActivityKey":"order-1","renewal":{"renewBefore":"7h45m","attributes":{"hero":"Panda"},"alert":{"title":"On"}},"#
        + #""contentStateShape":{"type":"object","properties":{"score":{"type":"integer"}}}}"#

    /// The registration's body and the activity answer are read and written by hand (`Schemas+ActivityJSON`):
    /// when the contract gains a member, this fails until the hand-written code and the samples above have it.
    @Test func theHandWrittenRegistrationCoversEveryMemberOfTheContract() throws {
        let schemas = try #require(try JSONValue.parse(Data(APIContract.text.utf8))["components"]?["schemas"])
        func members(_ name: String) -> Set<String> { Set(schemas[name]?["properties"]?.objectValue?.keys.map { $0 } ?? []) }
        #expect(Set(try JSONValue.parse(Self.fullRegistration).objectValue?.keys.map { $0 } ?? []) == members("ActivityRegistration"))
        #expect(Set(try JSONValue.parse(try json(Self.activity)).objectValue?.keys.map { $0 } ?? []) == members("Activity"))
    }

    /// A registration's body, read by hand from the checked value (``JSONValueDecodable``), as JSONDecoder
    /// reads its text: every member, absent, present or null.
    @Test func registrationBodiesReadAsJSONDecoderReadsThem() throws {
        let required = Self.requiredRegistration
        for body in [
            #"{\#(required),"environment":"sandbox"}"#,
            #"{\#(required),"environment":"production","userId":null,"groups":null,"frequentPushesEnabled":null,"renews":null}"#,
            Self.fullRegistration,
        ] {
            let read = try JSONValueDecoder.decode(Schemas.ActivityRegistration.self, from: try JSONValue.parse(body))
            #expect(read == (try APIJSON.decoder().decode(Schemas.ActivityRegistration.self, from: Data(body.utf8))), "\(body)")
        }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder.decode(Schemas.ActivityRegistration.self, from: try JSONValue.parse(#"{\#(required),"environment":"moon"}"#))
        }
    }

    @Test func tokenAndIdentityViews() throws {
        #expect(
            try json(Self.pushToStart)
                == #"{"attributesType":"Adventure","bundleId":"com.example.app","deviceId":"d1","environment":"production","id":"t1","refreshedAt":"2026-05-01T13:00:00Z","source":"stream","token":"abcd…ef01","updatedAt":"2026-05-01T12:00:00Z","userId":"u1","valid":true}"#
        )
        #expect(
            try json(Schemas.AppToken(token: "lp_x", userId: "u1", expiresAt: Self.at))
                == #"{"expiresAt":"2026-05-01T12:00:00Z","token":"lp_x","userId":"u1"}"#)
        #expect(
            try json(Schemas.Installation(installationId: "i1", token: "lp_y", expiresAt: Self.at))
                == #"{"expiresAt":"2026-05-01T12:00:00Z","installationId":"i1","token":"lp_y"}"#)
        #expect(try json(Schemas.SignOut(userId: "u1", pushToStartTokensReleased: 2)) == #"{"pushToStartTokensReleased":2,"userId":"u1"}"#)
        #expect(try json(Schemas.ReleasedPushToStartTokens(deviceId: "d1", released: 3)) == #"{"deviceId":"d1","released":3}"#)
    }

    @Test func sendViews() throws {
        let ids = (0..<3).map { _ in UUID() }
        let accepted = Schemas.Accepted(
            SendAcceptance(
                pushIDs: [ids[1], ids[2]], coalesced: [.init(replaced: ids[0], by: ids[1])], downgraded: [.init(pushID: ids[2], reason: "budget")],
                skipped: [.init(target: .activity("a9"), reason: "ended"), .init(target: .pushToStartToken(ids[0]), reason: "invalid")]))
        #expect(
            try json(accepted)
                == #"{"coalesced":[{"by":"p1","replaced":"p0"}],"downgraded":[{"pushId":"p2","reason":"budget"}],"pushIds":["p1","p2"],"skipped":[{"activityId":"a9","reason":"ended"},{"pushToStartTokenId":"p0","reason":"invalid"}]}"#
                .replacing("p0", with: ids[0].lowercased).replacing("p1", with: ids[1].lowercased).replacing("p2", with: ids[2].lowercased)
        )
        #expect(try json(Schemas.Accepted(SendAcceptance())) == #"{"coalesced":[],"downgraded":[],"pushIds":[],"skipped":[]}"#)
        let send = Schemas.GroupSend(
            sendId: "s1", groupId: "party", kind: .update, state: .sending, acceptedAt: Self.at, finishedAt: nil,
            counts: .init(targeted: 8, sent: 1, failed: 1, downgraded: 1, coalesced: 1, skipped: 1, retrying: 1, pending: 2),
            broadcastPushIds: ["b1"])
        #expect(
            try json(send)
                == #"{"acceptedAt":"2026-05-01T12:00:00Z","broadcastPushIds":["b1"],"counts":{"coalesced":1,"downgraded":1,"failed":1,"pending":2,"retrying":1,"sent":1,"skipped":1,"targeted":8},"groupId":"party","kind":"update","sendId":"s1","state":"sending"}"#
        )
        #expect(
            try json(Schemas.OperatorSendList(sends: [send], broadcasts: [], next: "n1"))
                == #"{"broadcasts":[],"next":"n1","sends":["# + (try json(send)) + "]}")
    }

    @Test func channelViews() throws {
        let channelJSON =
            #"{"apnsChannelId":"Y2hhbm5lbA==","bundleId":"com.example.app","createdAt":"2026-05-01T12:00:00Z","groupId":"party","id":"c1","name":"match","storagePolicy":1}"#
        #expect(try json(Self.channel) == channelJSON)
        #expect(try json(Schemas.ChannelList(channels: [Self.channel], limit: 10_000)) == #"{"channels":["# + channelJSON + #"],"limit":10000}"#)
        #expect(
            try json(Schemas.ChannelDetail(channel: Self.channel, deliveries: [Self.delivery]))
                == #"{"channel":"# + channelJSON + #","deliveries":["# + (try json(Self.delivery)) + "]}")
    }

    @Test func consoleViews() throws {
        let overview = Schemas.OperatorOverview(
            at: Self.at, pushesPerSecond: .init(additionalProperties: ["accepted": 1.5]),
            failures: [.init(reason: "BadDeviceToken", count: 2, remedy: "ask again")],
            downgradesLastHour: 1, outboxDepth: 2, openGroupSends: 3, webhookDepth: 4,
            channels: [.init(bundleId: "com.example.app", count: 5, limit: 10_000)],
            instances: [.init(instanceId: "i1", thisInstance: true, outbox: 1, groupPages: 2, webhooks: 3, leaseUntil: Self.later)])
        #expect(
            try json(overview)
                == #"{"at":"2026-05-01T12:00:00Z","channels":[{"bundleId":"com.example.app","count":5,"limit":10000}],"downgradesLastHour":1,"failures":[{"count":2,"reason":"BadDeviceToken","remedy":"ask again"}],"instances":[{"groupPages":2,"instanceId":"i1","leaseUntil":"2026-05-01T13:00:00Z","outbox":1,"thisInstance":true,"webhooks":3}],"openGroupSends":3,"outboxDepth":2,"pushesPerSecond":{"accepted":1.5},"webhookDepth":4}"#
        )
        let broadcasts = Schemas.OperatorSendList.BroadcastsPayloadPayload(
            channelId: "c1", name: "match", bundleId: "com.example.app", groupId: nil, pending: [Self.pending], deliveries: [])
        #expect(
            try json(broadcasts)
                == #"{"bundleId":"com.example.app","channelId":"c1","deliveries":[],"name":"match","pending":["# + (try json(Self.pending)) + "]}")
        let found = Schemas.OperatorActivity(
            activity: Self.activity, tokenSince: Self.at, tokenAgeSeconds: 60, deliveries: [Self.delivery], pending: [],
            consolePushIds: ["p1"], pushToStartTokens: [.init(token: Self.pushToStart, ageSeconds: 7, stale: false)],
            budget: .init(used: 1, limit: 3, left: 2))
        #expect(
            try json(found)
                == #"{"activity":"# + (try json(Self.activity)) + #","budget":{"left":2,"limit":3,"used":1},"consolePushIds":["p1"],"deliveries":["#
                + (try json(Self.delivery))
                + #"],"pending":[],"pushToStartTokens":[{"ageSeconds":7,"stale":false,"token":"# + (try json(Self.pushToStart))
                + #"}],"tokenAgeSeconds":60,"tokenSince":"2026-05-01T12:00:00Z"}"#)
        #expect(
            try json(Schemas.OperatorActivityList(activities: [Self.activity], next: nil)) == #"{"activities":["# + (try json(Self.activity)) + "]}")
    }

    /// Every value the records can hold is one the contract lists, so no answer ends in the mapping's 500.
    @Test func everyStoredValueIsListedByTheContract() throws {
        for value in APNsEnvironment.allCases {
            let _: Schemas.Activity.EnvironmentPayload = try contractValue(value, "environment")
            let _: Schemas.PushToStartTokenStored.EnvironmentPayload = try contractValue(value, "environment")
        }
        for value in ActivityState.allCases { let _: Schemas.Activity.StatePayload = try contractValue(value, "state") }
        for value in LiveActivityEvent.allCases {
            let _: Schemas.Delivery.KindPayload = try contractValue(value, "kind")
            let _: Schemas.Pending.KindPayload = try contractValue(value, "kind")
        }
        // Live Activity pushes go at 5 or 10 (the server never stores `.low`).
        for value in [APNsPriority.conservesPower, .immediate] {
            let _: Schemas.Delivery.PriorityPayload = try contractValue(value, "priority")
            let _: Schemas.Delivery.RequestedPriorityPayload = try contractValue(value, "requestedPriority")
            let _: Schemas.Pending.PriorityPayload = try contractValue(value, "priority")
        }
        for value in DeliveryOutcome.allCases { let _: Schemas.Delivery.OutcomePayload = try contractValue(value, "outcome") }
        for value in PushToStartTokenSource.allCases { let _: Schemas.PushToStartSource = try contractValue(value, "source") }
        for value in RenewalState.allCases { let _: Schemas.RenewalStatus.StatePayload = try contractValue(value, "renewal.state") }
    }

    /// A value the contract does not list is a 500 naming the field, not an answer the contract refuses.
    @Test func aValueTheContractLacksIsRefusedByName() {
        enum Drifted: String { case paused }
        #expect(throws: APIError(.internalServerError, field: "state", rule: "contract", "the contract lists no value 'paused' for state")) {
            let _: Schemas.Activity.StatePayload = try contractValue(Drifted.paused, "state")
        }
    }

    @Test func refusalsNameANullField() throws {
        #expect(
            try json(JSONErrorBody(error: .init(field: nil, rule: "encoding", message: "m")))
                == #"{"error":{"field":null,"message":"m","rule":"encoding"}}"#)
    }
}
