#if os(Linux)
    import ActivityKit
    import Foundation
    import LiveActivity
    import LivePushKit
    import Testing

    /// The ActivityKit adapter, compiled against the interface that mirrors ActivityKit's documented
    /// signatures and driven through it: what it reports, from which call.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    @MainActor
    struct ActivityTrackerTests {
        @Test func aPushToStartTokenOnlyThePropertyHasIsReportedAtLaunchAndOnForeground() async throws {
            // The stream never yields on this launch; the property has the token.
            ActivityKitControl.setPushToStartToken(Data([0xAB, 0xCD]), of: QuestAttributes.self, yieldToStream: false)
            try await tracking { sink in
                #expect(await sink.first(where: Self.pushToStart) == .pushToStart(token: "abcd", type: "QuestAttributes", source: .property))
                // A new token, again only in the property: the next return to the foreground reads it.
                ActivityKitControl.setPushToStartToken(Data([0xEF, 0x01]), of: QuestAttributes.self, yieldToStream: false)
                enterForeground()
                #expect(await sink.first { $0 == .pushToStart(token: "ef01", type: "QuestAttributes", source: .property) } != nil)
                #expect(await sink.all.filter(Self.pushToStart).count == 2)
                #expect(!(await sink.all.contains { if case .pushToStart(_, _, .stream) = $0 { true } else { false } }))
            }
        }

        @Test func theStreamsPushToStartTokenIsReportedAsTheStreams() async throws {
            try await tracking { sink in
                ActivityKitControl.setPushToStartToken(Data([0x01, 0x02]), of: QuestAttributes.self, yieldToStream: true)
                let event = await sink.first { if case .pushToStart(_, _, .stream) = $0 { true } else { false } }
                #expect(event == .pushToStart(token: "0102", type: "QuestAttributes", source: .stream))
            }
        }

        @Test func anActivityStartedByPushIsFollowedThroughRotationEndAndDismissal() async throws {
            try await tracking { sink in
                let id = try ActivityKitControl.startByPush(QuestAttributes(party: "party-7"), contentState: .init(hp: 1))
                ActivityKitControl.issueToken(Data([0x11, 0x11]), to: id, of: QuestAttributes.self)
                #expect(await sink.first(where: Self.token) == .token(token: "1111", activityID: id, groups: ["party-7"]))
                ActivityKitControl.issueToken(Data([0x22, 0x22]), to: id, of: QuestAttributes.self)
                #expect(await sink.first(where: { $0 == .token(token: "2222", activityID: id, groups: ["party-7"]) }) != nil)
                ActivityKitControl.setState(.ended, of: id, type: QuestAttributes.self)
                #expect(await sink.first(where: { $0 == .ended(activityID: id) }) != nil)
                ActivityKitControl.setState(.dismissed, of: id, type: QuestAttributes.self)
                #expect(await sink.first(where: { $0 == .dismissed(activityID: id) }) != nil)
            }
        }

        @Test func anActivityRunningAtLaunchIsReported() async throws {
            let id = try ActivityKitControl.startByPush(QuestAttributes(party: "party-1"), contentState: .init(hp: 1))
            ActivityKitControl.issueToken(Data([0x33, 0x44]), to: id, of: QuestAttributes.self)
            try await tracking { sink in
                #expect(await sink.first(where: Self.token) == .token(token: "3344", activityID: id, groups: ["party-1"]))
            }
        }

        @Test func anActivityTheAppRequestsIsReported() async throws {
            try await tracking { sink in
                let activity = try LivePush.request(
                    attributes: QuestAttributes(party: "p"), content: ActivityContent(state: QuestAttributes.ContentState(hp: 1), staleDate: nil))
                ActivityKitControl.issueToken(Data([0x55, 0x66]), to: activity.id, of: QuestAttributes.self)
                #expect(await sink.first(where: Self.token) == .token(token: "5566", activityID: activity.id, groups: ["p"]))
                // Its ContentState's shape, derived from the activity's state, came before the token.
                let shape = await sink.first { if case .shape = $0 { true } else { false } }
                #expect(
                    shape == .shape(type: "QuestAttributes", json: #"{"properties":{"hp":{"type":"integer"}},"required":["hp"],"type":"object"}"#))
            }
        }

        @Test func authorizationChangesAreReported() async throws {
            try await tracking { sink in
                #expect(await sink.first(where: { $0 == .authorization(enabled: true, frequent: false) }) != nil)
                ActivityKitControl.setAuthorization(.init(activitiesEnabled: true, frequentPushesEnabled: true))
                #expect(await sink.first(where: { $0 == .authorization(enabled: true, frequent: true) }) != nil)
            }
        }

        private nonisolated static func pushToStart(_ event: RecordedEvent) -> Bool {
            if case .pushToStart = event { true } else { false }
        }

        private nonisolated static func token(_ event: RecordedEvent) -> Bool {
            if case .token = event { true } else { false }
        }

        /// Runs `body` while `LivePush.track` follows QuestAttributes into a recording sink; stops tracking and
        /// forgets the interface's state afterwards.
        private func tracking(_ body: @MainActor (RecordingSink) async throws -> Void) async throws {
            let sink = RecordingSink()
            let tracker = Task { @MainActor in
                await LivePush.track(QuestAttributes.self, reporter: sink) { [$0.party] }
            }
            defer {
                tracker.cancel()
                ActivityKitControl.reset()
            }
            try await body(sink)
        }
    }

    struct QuestAttributes: ActivityAttributes {
        struct ContentState: Codable, Hashable, Sendable {
            var hp: Int
        }

        var party: String
    }

    enum RecordedEvent: Equatable, Sendable {
        case token(token: String, activityID: String, groups: [String])
        case pushToStart(token: String, type: String, source: PushToStartSource)
        case ended(activityID: String)
        case dismissed(activityID: String)
        case authorization(enabled: Bool, frequent: Bool)
        case shape(type: String, json: String)
    }

    /// Keeps every event the adapter reports; `first(where:)` waits up to 10 s for one that matches.
    actor RecordingSink: LiveActivityEventSink {
        private var events: [RecordedEvent] = []

        var all: [RecordedEvent] { events }

        func first(where matches: @Sendable (RecordedEvent) -> Bool) async -> RecordedEvent? {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let event = events.first(where: matches) { return event }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return events.first(where: matches)
        }

        private func record(_ event: RecordedEvent) {
            events.append(event)
        }

        func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String]) {
            record(.token(token: token.hex, activityID: activityID, groups: groups))
        }

        func pushToStartToken(_ token: PushToken, attributesType: String, source: PushToStartSource) {
            record(.pushToStart(token: token.hex, type: attributesType, source: source))
        }

        func activityEnded(activityID: String, _ end: ActivityEnd) {
            record(end == .dismissed ? .dismissed(activityID: activityID) : .ended(activityID: activityID))
        }

        func authorization(_ authorization: ActivityAuthorization) {
            record(.authorization(enabled: authorization.activitiesEnabled, frequent: authorization.frequentPushesEnabled))
        }

        func contentStateShape(_ shape: ContentStateShape, attributesType: String) {
            record(.shape(type: attributesType, json: shape.json.description))
        }
    }
#endif
