import APNsCore
import Foundation
import LiveActivity
import Testing

@Suite struct BroadcastPayloadTests {
    static let channel = "dHJpcC10by10aGUtbW9vbg=="
    static let state: JSONValue = ["homeScore": 2, "awayScore": 1]

    @Test func aBroadcastCannotStartAnActivity() throws {
        let start = try LiveActivityPayload.start(
            attributesType: "MatchAttributes", attributes: ["home": "A"], contentState: Self.state,
            alert: LiveActivityAlert(title: .plain("Kick-off"))
        )
        #expect(throws: LiveActivityBroadcastError.startNotBroadcastable) { try start.validateForBroadcast() }
        try LiveActivityPayload.update(contentState: Self.state).validateForBroadcast()
        try LiveActivityPayload.end(contentState: Self.state).validateForBroadcast()
    }

    @Test func theBroadcastLimitIs5120Bytes() throws {
        // About 4.5 KB: over a token push's 4096, within a broadcast's 5120.
        let big = LiveActivityPayload.update(contentState: ["text": .string(String(repeating: "x", count: 4500))])
        #expect(big.problems().contains { if case .payloadTooLarge = $0 { true } else { false } })
        try big.validateForBroadcast()
        let huge = LiveActivityPayload.update(contentState: ["text": .string(String(repeating: "x", count: 5200))])
        do {
            try huge.validateForBroadcast()
            Issue.record("a 5.2 KB broadcast passed")
        } catch {
            guard case .invalidPayload(.payloadTooLarge(_, let limit, _)) = error else {
                Issue.record("expected payloadTooLarge, got \(error)")
                return
            }
            #expect(limit == 5120)
        }
    }

    @Test func aBroadcastBuildsItsRequest() throws {
        let payload = LiveActivityPayload.update(contentState: Self.state, timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        let request = try LiveActivityBroadcast(bundleID: "com.example.scores", channelID: Self.channel, payload: payload, priority: .low)
            .makeRequest()
        #expect(request.path == "/4/broadcasts/apps/com.example.scores")
        #expect(request.priority == .low)
        #expect(request.expiration == .immediately)
        #expect(request.body == payload.encoded())
    }

    @Test func badBroadcastsSayWhy() {
        let update = LiveActivityPayload.update(contentState: Self.state)
        #expect(throws: LiveActivityBroadcastError.invalidChannelID(.notBase64("%%%"))) {
            try LiveActivityBroadcast(bundleID: "a.b", channelID: "%%%", payload: update).makeRequest()
        }
        #expect(throws: LiveActivityBroadcastError.invalidRequest(.missingExpiration)) {
            try LiveActivityBroadcast(bundleID: "a.b", channelID: Self.channel, payload: update, expiration: .serverDefault).makeRequest()
        }
        var withToken = update
        withToken.inputPushChannel = Self.channel
        #expect(throws: LiveActivityBroadcastError.invalidPayload(.inputPushNotOnStart(.inputPushChannel, event: .update))) {
            try LiveActivityBroadcast(bundleID: "a.b", channelID: Self.channel, payload: withToken).makeRequest()
        }
        #expect(LiveActivityBroadcastError.startNotBroadcastable.description.contains("input-push-channel"))
    }

    @Test func aStartCarriesItsChannel() throws {
        let start = try LiveActivityPayload.start(
            attributesType: "MatchAttributes", attributes: ["home": "A"], contentState: Self.state,
            alert: LiveActivityAlert(title: .plain("Kick-off")), inputPushChannel: Self.channel
        )
        try start.validate()
        #expect(start.apsValue["input-push-channel"] == .string(Self.channel))
        let decoded = try LiveActivityPayload.decode(from: start.encoded())
        #expect(decoded.inputPushChannel == Self.channel)
        var bad = start
        bad.inputPushChannel = "not a channel"
        #expect(bad.problems().contains(.invalidInputPushChannel("not a channel")))
    }
}
