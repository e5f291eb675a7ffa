import Foundation
import LiveActivity
import LivePushKit
import LivePushKitSimulation
import LivePushTesting
import Testing

/// The app's half: the shape derived from its ContentState type, sent with the registration, and the server
/// refusing what that type could not decode.
@Suite(.timeLimit(.minutes(10)))
struct ContentStateShapeDerivingTests {
    struct Hero: Codable, Sendable {
        var name: String
        var title: String?
    }

    struct State: Codable, Sendable {
        var currentHealthLevel: Double
        var eventDescription: String
        var level: Int
        var endsAt: Date
        var note: String?
        var avatar: Data?
        var count: Int?
        var hero: Hero
        var tags: [String]
    }

    @Test func optionalsAreFoundByTheirTypeEvenWhenNil() throws {
        let sample = State(
            currentHealthLevel: 1, eventDescription: "go", level: 2, endsAt: Date(timeIntervalSinceReferenceDate: 0), note: nil, avatar: nil,
            count: 3, hero: Hero(name: "Panda", title: nil), tags: ["a"])
        let shape = try ContentStateShape(deriving: sample)
        #expect(shape.root.required == ["currentHealthLevel", "eventDescription", "level", "endsAt", "hero", "tags"])
        #expect(shape.root.properties["level"]?.kind == .integer)
        #expect(shape.root.properties["currentHealthLevel"]?.kind == .number)
        #expect(shape.root.properties["endsAt"]?.kind == .number)
        #expect(shape.root.properties["note"]?.kind == .string, "a nil optional, typed from its declaration")
        #expect(shape.root.properties["avatar"] == ContentStateShape.Node(.string, base64: true))
        #expect(shape.root.properties["count"]?.kind == .integer)
        #expect(shape.root.properties["hero"]?.required == ["name"])
        #expect(shape.root.properties["tags"]?.items?.kind == .string)
        // The derived shape and Foundation's decoder agree on what fails.
        let payloads: [JSONValue] = [
            ["currentHealthLevel": 1, "eventDescription": "x", "level": 1, "endsAt": 0, "hero": ["name": "A"], "tags": []],
            ["currentHealthLevel": 1, "eventDescription": "x", "level": 1.5, "endsAt": 0, "hero": ["name": "A"], "tags": []],
            ["currentHealthLevel": 1, "eventDescription": "x", "level": 1, "endsAt": 0, "hero": ["title": "A"], "tags": []],
            ["currentHealthLevel": 1, "eventDescription": "x", "level": 1, "endsAt": 0, "hero": ["name": "A"], "tags": [], "note": 3],
            ["currentHealthLevel": 1, "eventDescription": "x", "level": 1, "endsAt": 0, "hero": ["name": "A"], "tags": [], "count": nil],
        ]
        for payload in payloads {
            let decodes = (try? JSONDecoder().decode(State.self, from: payload.serialized())) != nil
            #expect(shape.check(payload).isEmpty == decodes, "\(payload)")
        }
    }

    /// The adapter is given the app's ContentState type and nothing else; the reporter registers the shape,
    /// and a backend's update that type cannot decode is refused before anything reaches the iPhone.
    @Test func aReporterRegistersTheShapeAndABadUpdateNeverReachesTheIPhone() async throws {
        struct Adventure: Codable, Sendable {
            var currentHealthLevel: Double
            var eventDescription: String
        }
        try await withAppSetup(user: "ava") { setup in
            let activity = try await setup.startActivity()
            let reporter = try LivePushReporter(setup.configuration(transport: ForwardingTransport(target: setup.server.url)))
            let adapter = SimulatedActivityAdapter(
                world: setup.apns.simulator.world, deviceID: setup.iPhone.id, bundleID: setup.apns.bundleID,
                attributesType: setup.apns.attributesTypes[0], contentState: Adventure.self, sink: reporter)
            try await whileRunning(reporter) {
                await adapter.launch()
                #expect(await eventually { await reporter.pendingCount == 0 })
            }
            let path = "/v1/apps/\(setup.apns.bundleID)/attributes-types/\(setup.apns.attributesTypes[0])/content-state-shape"
            let stored = try await setup.backend.request("GET", path, nil)
            #expect(stored.status == 200 && stored.json["source"] as? String == "app", "\(stored.json)")
            let typo = try await setup.backend.request(
                "POST", "/v1/activities/\(activity.id)/update", ["contentState": ["currentHealthLevl": 0.5, "eventDescription": "typo"]])
            #expect(typo.status == 422, "\(typo.json)")
            let error = typo.json["error"] as? [String: Any]
            #expect(error?["field"] as? String == "contentState.currentHealthLevel" && error?["rule"] as? String == "missing")
            #expect(try await setup.updateReaches(activity.id, event: "fixed"))
            let history = try await setup.apns.simulator.world.activity(id: activity.id).history
            #expect(history.count == 1 && history.allSatisfy { $0.outcome.kind == .applied }, "the refused update never reached the iPhone")
        }
    }
}
