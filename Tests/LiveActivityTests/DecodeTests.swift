import Foundation
import LiveActivity
import Testing

@Suite struct DecodeTests {
    func decodeError(_ json: String) -> PayloadDecodingError? {
        do {
            _ = try LiveActivityPayload.decode(from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func roundTripOfEveryField() throws {
        let payload = LiveActivityPayload(
            event: .start,
            timestamp: Fixtures.unix(1_705_547_770),
            contentState: ["emoji": "🍏", "level": 0.5, "nested": ["a": [1, 2]]],
            staleDate: Fixtures.unix(1_705_550_000),
            dismissalDate: Fixtures.unix(1_705_560_000),
            relevanceScore: -3.25,
            alert: LiveActivityAlert(
                title: .localized(key: "%@ started", arguments: ["Apple"]), body: "World", sound: .file("chime.aiff")
            ),
            attributesType: "LiveActivityAttributes",
            attributes: ["name": "Apple"],
            inputPushToken: true,
            inputPushChannel: "dHJhY2stMQ=="
        )
        let decoded = try LiveActivityPayload.decode(from: payload.encoded())
        #expect(decoded == payload)
        // The decoded payload keeps breaking rules so validate() can report them.
        var broken = payload
        broken.event = .update
        let back = try LiveActivityPayload.decode(from: broken.encoded())
        #expect(back.attributes == ["name": "Apple"])
        #expect(back.problems().contains(.attributesNotOnStart(.attributes, event: .update)))
    }

    @Test func lenientForms() throws {
        let json = #"""
            {"aps":{"event":"update","timestamp":1700000000.9,"content-state":{},"alert":"plain body",
            "input-push-token":true,"unknown-key":[1],"stale-date":null},"custom":"ignored"}
            """#
        let payload = try LiveActivityPayload.decode(from: Data(json.utf8))
        #expect(payload.alert == LiveActivityAlert(body: "plain body"))
        #expect(payload.inputPushToken)
        #expect(payload.staleDate == nil)
        #expect(payload.timestamp == Fixtures.unix(1_700_000_000.9))
        let zero = try LiveActivityPayload.decode(
            from: Data(#"{"aps":{"event":"end","timestamp":1,"input-push-token":0}}"#.utf8)
        )
        #expect(!zero.inputPushToken)
        #expect(zero.contentState == nil)
        try zero.validate()  // an end may omit content-state
        var update = zero
        update.event = .update
        #expect(throws: LiveActivityPayloadError.missingContentState(event: .update)) { try update.validate() }
    }

    @Test func notJSON() {
        guard case .invalidJSON(let detail)? = decodeError("{aps") else {
            Issue.record("expected invalidJSON")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test func bodyNotAnObject() {
        #expect(decodeError("[1]") == .bodyNotObject(actualType: "array"))
    }

    @Test func missingAPS() {
        let error = decodeError(#"{"event":"update"}"#)
        #expect(error == .missingAPS)
        #expect(error?.description.contains("no \"aps\" key") == true)
    }

    @Test func apsNotAnObject() {
        #expect(decodeError(#"{"aps":"update"}"#) == .wrongType(path: "aps", expected: "object", actual: "string"))
    }

    @Test func missingEventAndTimestamp() {
        #expect(decodeError(#"{"aps":{"timestamp":1}}"#) == .missingField(path: "aps.event"))
        #expect(decodeError(#"{"aps":{"event":"end"}}"#) == .missingField(path: "aps.timestamp"))
    }

    @Test func badEvent() {
        let error = decodeError(#"{"aps":{"event":"Update","timestamp":1}}"#)
        #expect(error == .unknownEvent("Update"))
        #expect(error?.description == "aps.event is 'Update'; accepted: start, update, end")
        #expect(
            decodeError(#"{"aps":{"event":3,"timestamp":1}}"#)
                == .wrongType(path: "aps.event", expected: "string", actual: "number"))
    }

    /// Fields beside an update's event and timestamp, each of a wrong type, and the error that names it.
    static let wrongTypeFields: [(fields: String, error: PayloadDecodingError)] = [
        (#""relevance-score":"high""#, .wrongType(path: "aps.relevance-score", expected: "number", actual: "string")),
        (#""attributes-type":1"#, .wrongType(path: "aps.attributes-type", expected: "string", actual: "number")),
        (#""input-push-token":2"#, .wrongType(path: "aps.input-push-token", expected: "1", actual: "number")),
        (#""alert":[1]"#, .wrongType(path: "aps.alert", expected: "object", actual: "array")),
        (#""alert":{"title":{"loc-args":[]}}"#, .missingField(path: "aps.alert.title.loc-key")),
        (
            #""alert":{"body":{"loc-key":"k","loc-args":["a",2]}}"#,
            .wrongType(path: "aps.alert.body.loc-args[1]", expected: "string", actual: "number")
        ),
        (#""alert":{"sound":true}"#, .wrongType(path: "aps.alert.sound", expected: "string", actual: "boolean")),
    ]

    @Test func wrongTypes() {
        #expect(
            decodeError(#"{"aps":{"event":"update","timestamp":"1"}}"#)
                == .wrongType(path: "aps.timestamp", expected: "number (Unix seconds)", actual: "string"))
        for (fields, error) in Self.wrongTypeFields {
            #expect(decodeError(#"{"aps":{"event":"update","timestamp":1,\#(fields)}}"#) == error, "\(fields)")
        }
        let description = PayloadDecodingError.wrongType(path: "aps.timestamp", expected: "number", actual: "string").description
        #expect(description == "aps.timestamp is a string; expected number")
    }
}
