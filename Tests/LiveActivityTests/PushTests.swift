import APNsCore
import Foundation
import LiveActivity
import Testing

@Suite struct PushTests {
    static let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    static let bundleID = "com.example.apple-samplecode.Emoji-Rangers"
    static let payload = LiveActivityPayload.update(
        contentState: ["currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!"],
        timestamp: Fixtures.unix(1_685_952_000)
    )

    func error(_ push: LiveActivityPush) -> LiveActivityPushError? {
        do {
            _ = try push.makeRequest()
            return nil
        } catch {
            return error
        }
    }

    @Test func bundleIDGetsTheLiveActivitySuffixAndRequestIsComplete() throws {
        let id = UUID()
        let push = LiveActivityPush(
            token: Self.token.uppercased(), bundleID: Self.bundleID, payload: Self.payload,
            priority: .conservesPower, expiration: .at(Fixtures.unix(1_685_955_600)), collapseID: "panda", apnsID: id
        )
        #expect(push.topic == "com.example.apple-samplecode.Emoji-Rangers.push-type.liveactivity")
        let request = try push.makeRequest()
        #expect(request.path == "/3/device/\(Self.token)")
        #expect(request.body == Self.payload.encoded())
        let fields = Dictionary(uniqueKeysWithValues: request.headers.fields.map { ($0.name, $0.value) })
        #expect(fields["apns-push-type"] == "liveactivity")
        #expect(fields["apns-topic"] == push.topic)
        #expect(fields["apns-priority"] == "5")
        #expect(fields["apns-expiration"] == "1685955600")
        #expect(fields["apns-collapse-id"] == "panda")
        #expect(fields["apns-id"] == id.uuidString.lowercased())
    }

    @Test func defaultPriorityIsImmediate() throws {
        let request = try LiveActivityPush(token: Self.token, bundleID: Self.bundleID, payload: Self.payload).makeRequest()
        #expect(request.headers.priority == .immediate)
    }

    @Test func deviceTokenInit() throws {
        let token = try DeviceToken(hex: Self.token)
        let request = try LiveActivityPush(token: token, bundleID: Self.bundleID, payload: Self.payload).makeRequest()
        #expect(request.token == token)
    }

    @Test func topicWithoutSuffixIsRejected() {
        let push = LiveActivityPush(token: Self.token, topic: Self.bundleID, payload: Self.payload)
        let failure = error(push)
        #expect(failure == .invalidHeaders(.topicMissingSuffix(topic: Self.bundleID, expectedSuffix: ".push-type.liveactivity")))
        #expect(failure?.description.contains("does not end in '.push-type.liveactivity'") == true)
    }

    @Test func emptyTopicIsRejected() {
        #expect(error(LiveActivityPush(token: Self.token, topic: "", payload: Self.payload)) == .invalidHeaders(.emptyTopic))
    }

    @Test func emptyAndNonHexTokensAreRejected() {
        #expect(error(LiveActivityPush(token: "", bundleID: Self.bundleID, payload: Self.payload)) == .invalidToken(.empty))
        let bad = error(LiveActivityPush(token: "abzz", bundleID: Self.bundleID, payload: Self.payload))
        #expect(bad == .invalidToken(.notHex(position: 2, character: "z")))
        #expect(bad?.description.contains("only hexadecimal digits") == true)
    }

    @Test func collapseIDOver64BytesIsRejected() {
        let push = LiveActivityPush(
            token: Self.token, bundleID: Self.bundleID, payload: Self.payload, collapseID: String(repeating: "c", count: 65)
        )
        #expect(error(push) == .invalidHeaders(.collapseIDTooLong(bytes: 65)))
    }

    @Test func priorityOneIsRejected() {
        let push = LiveActivityPush(token: Self.token, bundleID: Self.bundleID, payload: Self.payload, priority: .low)
        let failure = error(push)
        #expect(failure == .unsupportedPriority(.low))
        #expect(failure?.description.contains("accepted: 10 (immediate) or 5 (conserves power)") == true)
    }

    @Test func invalidPayloadIsRejected() throws {
        var payload = Self.payload
        payload.dismissalDate = Fixtures.unix(0)
        let push = LiveActivityPush(token: Self.token, bundleID: Self.bundleID, payload: payload)
        #expect(error(push) == .invalidPayload(.dismissalDateNotOnEnd(event: .update)))
    }

    @Test func oversizedPayloadIsRejected() throws {
        let payload = try ValidationTests.payload(ofSize: 4097)
        let push = LiveActivityPush(token: Self.token, bundleID: Self.bundleID, payload: payload)
        guard case .invalidPayload(.payloadTooLarge(4097, 4096, _))? = error(push) else {
            Issue.record("expected payloadTooLarge")
            return
        }
        let fits = LiveActivityPush(token: Self.token, bundleID: Self.bundleID, payload: try ValidationTests.payload(ofSize: 4096))
        #expect(try fits.makeRequest().body.count == 4096)
    }
}
