import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET`/`POST /v1/clock` over HTTP on a whole simulator whose base clock is manual: moving the devices'
/// time forward applies the 8-hour end and the 12-hour removal, and bad settings name their field.
@Suite struct ControlClockTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func advancingTheClockEndsAnActivityAtEightHoursAndDismissesItAtTwelve() async throws {
        let base = ManualWallClock(Self.start)
        try await withSimulator(SimulatorOptions(clock: base)) { apns in
            let control = try #require(apns.controlURL)
            let activity = try await apns.startActivity(contentState: ["currentHealthLevel": 1, "eventDescription": "Off we go"])
            var shown = try await Self.call(control, "GET", "/v1/activities/\(activity.id)")
            #expect(shown.json?["state"] == "active")
            #expect(shown.json?["activeUntil"] == .string("2027-01-15T16:00:00Z"), "8 hours after the start")

            let moved = try await Self.call(control, "POST", "/v1/clock", body: ["advanceSeconds": .number(8 * 3600)])
            #expect(moved.status == 200)
            #expect(moved.json?["now"] == .string("2027-01-15T16:00:00Z"))
            #expect(moved.json?["rate"] == 1)
            shown = try await Self.call(control, "GET", "/v1/activities/\(activity.id)")
            #expect(shown.json?["state"] == "ended")
            #expect(shown.json?["endedBy"] == "system")
            #expect(shown.json?["endedAt"] == .string("2027-01-15T16:00:00Z"))
            #expect(shown.json?["activeUntil"] == nil)
            #expect(shown.json?["dismissalDate"] == .string("2027-01-15T20:00:00Z"), "at most 12 hours after the start")

            _ = try await Self.call(control, "POST", "/v1/clock", body: ["advanceSeconds": .number(4 * 3600), "rate": 600])
            shown = try await Self.call(control, "GET", "/v1/activities/\(activity.id)")
            #expect(shown.json?["state"] == "dismissed")
            base.advance(by: 6)
            let clock = try await Self.call(control, "GET", "/v1/clock")
            #expect(clock.json?["now"] == .string("2027-01-15T21:00:00Z"), "6 real seconds at 600 are an hour")
            #expect(clock.json?["rate"] == 600)
            #expect(apns.clock.now() == Self.start.addingTimeInterval(13 * 3600), "the helpers' clock is the devices' clock")
        }
    }

    @Test func movingTheClockIsAnEvent() async throws {
        try await withSimulator(SimulatorOptions(clock: ManualWallClock(Self.start))) { apns in
            let control = try #require(apns.controlURL)
            let events = apns.simulator.world.events.subscribe()
            _ = try await Self.call(control, "POST", "/v1/clock", body: ["rate": 60])
            var iterator = events.makeAsyncIterator()
            let event = try #require(await iterator.next())
            #expect(event.kind == .clockChanged)
            #expect(event.data["rate"] == 60)
            #expect(event.data["now"] == .string("2027-01-15T08:00:00Z"))
        }
    }

    @Test(arguments: [
        (#"{"rate": 0}"#, "rate", "outside 0.001...86400"),
        (#"{"rate": 100000}"#, "rate", "outside 0.001...86400"),
        (#"{"advanceSeconds": -60}"#, "advanceSeconds", "only moves forward"),
        (#"{"advanceSeconds": "an hour"}"#, "advanceSeconds", "expected a number"),
        (#"{}"#, nil, "expected advanceSeconds"),
    ])
    func refusesABadSettingNamingItsField(_ body: String, _ field: String?, _ message: String) async throws {
        try await withSimulator(SimulatorOptions(clock: ManualWallClock(Self.start))) { apns in
            let control = try #require(apns.controlURL)
            let answer = try await Self.call(control, "POST", "/v1/clock", raw: body)
            #expect(answer.status == 400)
            #expect(answer.json?["error"]?["field"] == field.map { .string($0) } ?? .null)
            #expect(answer.json?["error"]?["message"]?.stringValue?.contains(message) == true, "\(answer.json ?? .null)")
            #expect(apns.simulator.clock.now() == Self.start, "nothing moved")
        }
    }

    struct Answer {
        var status: Int
        var json: JSONValue?
    }

    static func call(_ control: URL, _ method: String, _ path: String, body: JSONValue? = nil, raw: String? = nil) async throws -> Answer {
        var request = URLRequest(url: control.appendingPathComponent(path))
        request.httpMethod = method
        if let text = raw ?? body.map({ String(decoding: $0.serialized(), as: UTF8.self) }) {
            request.httpBody = Data(text.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, json: try? JSONValue.parse(data))
    }
}
