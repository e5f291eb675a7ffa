import Foundation
import LiveActivity
import Testing

@Suite struct ValidationTests {
    static let t = Fixtures.unix(1_700_000_000)
    static let alert = LiveActivityAlert(title: "Hello", body: "World")

    static func start() -> LiveActivityPayload {
        .start(attributesType: "A", attributes: ["name": "n"] as JSONValue, contentState: ["emoji": "x"] as JSONValue, alert: alert, timestamp: t)
    }

    static func update() -> LiveActivityPayload {
        .update(contentState: ["emoji": "x"] as JSONValue, timestamp: t)
    }

    func firstError(_ payload: LiveActivityPayload) -> LiveActivityPayloadError? {
        do {
            try payload.validate()
            return nil
        } catch {
            return error
        }
    }

    @Test func validPayloadsPass() throws {
        try Self.start().validate()
        try Self.update().validate()
        try LiveActivityPayload.end(contentState: [:] as JSONValue, dismissalDate: Self.t, timestamp: Self.t).validate()
        #expect(Self.update().problems().isEmpty)
    }

    @Test(arguments: [LiveActivityEvent.start, .update])
    func contentStateIsRequiredForStartAndUpdate(_ event: LiveActivityEvent) {
        var payload = event == .start ? Self.start() : Self.update()
        payload.event = event
        payload.contentState = nil
        let error = firstError(payload)
        #expect(error == .missingContentState(event: event))
        let article = event == .start ? "a" : "an"
        #expect(error?.description.contains("content-state is missing on \(article) '\(event)' push") == true)
    }

    @Test func endMayOmitTheContentState() throws {
        // WWDC23: the final content state of an end is optional; the activity keeps its last one.
        let end = LiveActivityPayload.end(dismissalDate: Self.t, timestamp: Self.t)
        #expect(end.contentState == nil)
        try end.validate()
        #expect(String(decoding: end.encoded(), as: UTF8.self).contains("content-state") == false)
    }

    @Test func startRequiresAttributesTypeAttributesAndAlert() {
        var payload = Self.start()
        payload.attributesType = nil
        payload.attributes = nil
        payload.alert = nil
        #expect(
            payload.problems() == [
                .missingStartField(.attributesType), .missingStartField(.attributes), .missingStartField(.alert),
            ])
        #expect(LiveActivityPayloadError.missingStartField(.alert).description.contains("alert is missing on a 'start' push"))
    }

    @Test(arguments: [LiveActivityEvent.start, .update])
    func dismissalDateOnlyOnEnd(_ event: LiveActivityEvent) {
        var payload = event == .start ? Self.start() : Self.update()
        payload.dismissalDate = Self.t
        let error = firstError(payload)
        #expect(error == .dismissalDateNotOnEnd(event: event))
        #expect(error?.description == "dismissal-date is set on \(event == .start ? "a" : "an") '\(event)' push; it is only accepted on 'end'")
    }

    @Test(arguments: [LiveActivityEvent.update, .end])
    func attributesOnlyOnStart(_ event: LiveActivityEvent) {
        var payload = Self.update()
        payload.event = event
        payload.attributes = ["name": "n"]
        payload.attributesType = "A"
        #expect(
            payload.problems() == [
                .attributesNotOnStart(.attributesType, event: event), .attributesNotOnStart(.attributes, event: event),
            ])
        #expect(payload.problems().first?.description.hasPrefix("attributes-type is set on an '\(event)' push") == true)
    }

    @Test(arguments: [LiveActivityEvent.update, .end])
    func inputPushOnlyOnStart(_ event: LiveActivityEvent) {
        var payload = Self.update()
        payload.event = event
        payload.inputPushToken = true
        payload.inputPushChannel = "dHJhY2stMQ=="
        #expect(
            payload.problems() == [
                .inputPushNotOnStart(.inputPushToken, event: event), .inputPushNotOnStart(.inputPushChannel, event: event),
            ])
        #expect(payload.problems().first?.description.contains("input-push-token is set on an '\(event)' push") == true)
    }

    @Test func inputPushOnStartIsAccepted() throws {
        var payload = Self.start()
        payload.inputPushToken = true
        payload.inputPushChannel = "dHJhY2stMQ=="
        try payload.validate()
    }

    @Test func inputPushChannelMustBeBase64() {
        var payload = Self.start()
        payload.inputPushChannel = "not base64!"
        #expect(firstError(payload) == .invalidInputPushChannel("not base64!"))
        payload.inputPushChannel = ""
        #expect(firstError(payload) == .invalidInputPushChannel(""))
    }

    @Test func contentStateMustBeAnObject() {
        let payload = LiveActivityPayload.update(contentState: ["a", "b"] as JSONValue, timestamp: Self.t)
        let error = firstError(payload)
        #expect(error == .contentStateNotObject(actualType: "array"))
        #expect(error?.description.hasPrefix("content-state is a JSON array; it must be a JSON object") == true)
    }

    @Test func attributesMustBeAnObjectAndTypeNonEmpty() {
        var payload = Self.start()
        payload.attributes = "Apple"
        payload.attributesType = ""
        #expect(payload.problems() == [.attributesNotObject(actualType: "string"), .emptyAttributesType])
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func relevanceScoreMustBeFinite(_ score: Double) throws {
        var payload = Self.update()
        payload.relevanceScore = score
        guard case .relevanceScoreNotFinite(let value)? = firstError(payload) else {
            Issue.record("expected relevanceScoreNotFinite")
            return
        }
        #expect(value.isNaN == score.isNaN)
        #expect(firstError(payload)?.description.contains("must be a finite number") == true)
        // The body stays valid JSON without the score.
        #expect(payload.apsValue["relevance-score"] == nil)
        #expect(try JSONValue.parse(payload.encoded())["aps"]?["event"] == "update")
    }

    @Test func locKeyMustNotBeEmpty() {
        var payload = Self.update()
        payload.alert = LiveActivityAlert(title: .localized(key: "", arguments: []), body: .localized(key: "", arguments: ["x"]))
        #expect(payload.problems() == [.emptyLocKey(field: "alert.title"), .emptyLocKey(field: "alert.body")])
        #expect(payload.problems().first?.description.hasPrefix("alert.title.loc-key is empty") == true)
    }

    @Test func soundFileNameMustNotBeEmpty() {
        var payload = Self.update()
        payload.alert = LiveActivityAlert(body: "b", sound: .file(""))
        #expect(firstError(payload) == .emptySoundName)
        #expect(LiveActivityAlert.Sound("default") == .default)
        #expect(LiveActivityAlert.Sound("ding.caf") == .file("ding.caf"))
    }

    /// A payload whose body is exactly `size` bytes, padded in content-state.text.
    static func payload(ofSize size: Int) throws -> LiveActivityPayload {
        func make(_ count: Int) -> LiveActivityPayload {
            .update(
                contentState: ["text": .string(String(repeating: "a", count: count)), "n": 1] as JSONValue,
                alert: LiveActivityAlert(body: "short"), timestamp: t
            )
        }
        let base = make(0).encoded().count
        let payload = make(size - base)
        try #require(payload.encoded().count == size)
        return payload
    }

    @Test func exactly4096BytesIsAccepted() throws {
        let payload = try Self.payload(ofSize: 4096)
        try payload.validate()
        #expect(try payload.validatedBody().count == 4096)
    }

    @Test func bytes4097IsRejectedNamingTheLargestParts() throws {
        let payload = try Self.payload(ofSize: 4097)
        let error = firstError(payload)
        guard case .payloadTooLarge(let size, let limit, let largest)? = error else {
            Issue.record("expected payloadTooLarge, got \(String(describing: error))")
            return
        }
        #expect(size == 4097)
        #expect(limit == 4096)
        #expect(largest.first?.path == "content-state.text")
        #expect(largest.map(\.path) == ["content-state.text", "alert.body", "content-state.n"])
        #expect(largest.last?.bytes == 5)  // "n":1
        let text = error?.description ?? ""
        #expect(text.contains("4097 bytes"))
        #expect(text.contains("at most 4096"))
        #expect(text.contains("Trim at least 1 bytes"))
        #expect(text.contains("content-state.text ("))
    }

    @Test func maximumSizeIsConfigurableForBroadcast() throws {
        let payload = try Self.payload(ofSize: 5000)
        try payload.validate(maximumSize: 5120)
        #expect(throws: LiveActivityPayloadError.self) { try payload.validate() }
    }

    @Test func multiByteCharactersCountAsBytes() throws {
        let payload = LiveActivityPayload.update(
            contentState: ["emoji": .string(String(repeating: "🍏", count: 1100))] as JSONValue, timestamp: Self.t
        )
        // 1100 characters but 4400 UTF-8 bytes.
        guard case .payloadTooLarge(let size, _, _)? = firstError(payload) else {
            Issue.record("expected payloadTooLarge")
            return
        }
        #expect(size > 4400)
    }
}
