import APNsCore
import Foundation
import Testing

@Suite struct BroadcastRequestTests {
    static let channel = try! APNsChannelID("dHJpcC10by10aGUtbW9vbg==")

    @Test func channelIDsMustBeBase64() throws {
        #expect(throws: APNsChannelID.ValidationError.empty) { try APNsChannelID("") }
        #expect(throws: APNsChannelID.ValidationError.notBase64("not base64!")) { try APNsChannelID("not base64!") }
        let long = String(repeating: "A", count: APNsChannelID.maximumLength + 4)
        #expect(throws: APNsChannelID.ValidationError.tooLong(length: long.count)) { try APNsChannelID(long) }
        let random = APNsChannelID.random()
        #expect(Data(base64Encoded: random.base64)?.count == 16)
        #expect(try APNsChannelID(random.base64) == random)
    }

    @Test func aBroadcastHasThePathAndHeadersAppleDocuments() throws {
        let id = UUID()
        let request = try APNsBroadcastRequest(
            bundleID: "com.example.scores", channelID: Self.channel, priority: .conservesPower,
            expiration: .at(Date(timeIntervalSince1970: 1_800_000_000)), requestID: id, body: Data(#"{"aps":{}}"#.utf8)
        )
        #expect(request.path == "/4/broadcasts/apps/com.example.scores")
        let fields = Dictionary(uniqueKeysWithValues: request.fields.map { ($0.name, $0.value) })
        #expect(
            fields == [
                "apns-channel-id": Self.channel.base64, "apns-push-type": "liveactivity", "apns-expiration": "1800000000",
                "apns-priority": "5", "apns-request-id": id.uuidString.lowercased(),
            ])
        #expect(fields["apns-topic"] == nil)
        let immediate = try APNsBroadcastRequest(bundleID: "a.b", channelID: Self.channel, expiration: .immediately, body: Data("{}".utf8))
        #expect(immediate.fields.first { $0.name == "apns-expiration" }?.value == "0")
    }

    @Test func broadcastRulesAreCheckedBeforeSending() {
        let body = Data("{}".utf8)
        #expect(throws: APNsBroadcastRequest.ValidationError.missingExpiration) {
            try APNsBroadcastRequest(bundleID: "a.b", channelID: Self.channel, expiration: .serverDefault, body: body)
        }
        #expect(throws: APNsBroadcastRequest.ValidationError.bundleIDHasTopicSuffix("a.b.push-type.liveactivity")) {
            try APNsBroadcastRequest(bundleID: "a.b.push-type.liveactivity", channelID: Self.channel, expiration: .immediately, body: body)
        }
        #expect(throws: APNsBroadcastRequest.ValidationError.emptyBundleID) {
            try APNsBroadcastRequest(bundleID: "", channelID: Self.channel, expiration: .immediately, body: body)
        }
        #expect(throws: APNsBroadcastRequest.ValidationError.emptyPayload) {
            try APNsBroadcastRequest(bundleID: "a.b", channelID: Self.channel, expiration: .immediately, body: Data())
        }
        let limit = APNsBroadcastRequest.maximumPayloadSize
        #expect(throws: APNsBroadcastRequest.ValidationError.payloadTooLarge(size: limit + 1)) {
            try APNsBroadcastRequest(bundleID: "a.b", channelID: Self.channel, expiration: .immediately, body: Data(count: limit + 1))
        }
        #expect((try? APNsBroadcastRequest(bundleID: "a.b", channelID: Self.channel, expiration: .immediately, body: Data(count: limit))) != nil)
    }

    @Test func channelManagementRequests() throws {
        let create = try APNsChannelRequest(bundleID: "com.example.scores", operation: .create(.mostRecentMessage))
        #expect(create.method == "POST")
        #expect(create.path == "/1/apps/com.example.scores/channels")
        #expect(String(decoding: create.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(create.fields.isEmpty)
        let read = try APNsChannelRequest(bundleID: "com.example.scores", operation: .read(Self.channel))
        #expect(read.method == "GET" && read.path == "/1/apps/com.example.scores/channels" && read.body.isEmpty)
        #expect(read.fields.map(\.name) == ["apns-channel-id"])
        let delete = try APNsChannelRequest(bundleID: "com.example.scores", operation: .delete(Self.channel), requestID: UUID())
        #expect(delete.method == "DELETE")
        #expect(delete.fields.map(\.name) == ["apns-channel-id", "apns-request-id"])
        let list = try APNsChannelRequest(bundleID: "com.example.scores", operation: .list)
        #expect(list.method == "GET" && list.path == "/1/apps/com.example.scores/all-channels")
    }

    @Test func managementHostsAndPorts() {
        #expect(APNsEnvironment.sandbox.channelManagementHost == "api-manage-broadcast.sandbox.push.apple.com")
        #expect(APNsEnvironment.production.channelManagementHost == "api-manage-broadcast.push.apple.com")
        #expect(APNsEnvironment.sandbox.channelManagementPort == 2195)
        #expect(APNsEnvironment.production.channelManagementPort == 2196)
    }

    /// Every reason of Apple's broadcast error table (docs/apns-protocol.md §10.3) is a known case with
    /// its status, and reads back from its string.
    @Test func everyBroadcastReasonIsTyped() {
        let table: [(String, Int)] = [
            ("FeatureNotEnabled", 400), ("MissingChannelId", 400), ("BadChannelId", 400), ("ChannelNotRegistered", 400),
            ("BadRequestParams", 400), ("BadRequestPayload", 400), ("PayloadEmpty", 400), ("BadMessageId", 400),
            ("MissingPushType", 400), ("InvalidPushType", 400), ("CannotCreateChannelConfig", 400),
            ("BadExpirationDate", 400), ("TopicDisallowed", 400), ("BadPriority", 400), ("MissingChannelQueueSize", 400),
            ("BadCertificate", 403), ("BadCertificateEnvironment", 403), ("TopicMismatch", 403),
            ("MissingProviderToken", 403), ("ExpiredProviderToken", 403), ("InvalidProviderToken", 403),
            ("BadPath", 404), ("MethodNotAllowed", 405), ("PayloadTooLarge", 413), ("TooManyRequests", 429),
            ("TooManyProviderTokenUpdates", 429), ("InternalServerError", 500), ("ServiceUnavailable", 503),
            ("Service Unavailable", 503), ("Shutdown", 503),
        ]
        for (raw, status) in table {
            let reason = APNsReason(rawValue: raw)
            #expect(APNsReason.known.contains(reason), "\(raw) is not a known reason")
            #expect(reason.status == status, "\(raw)")
            #expect(!reason.broadcastRemedy.isEmpty)
        }
        #expect(APNsReason.badExpirationDate.broadcastRemedy.contains("policy 0"))
    }
}
