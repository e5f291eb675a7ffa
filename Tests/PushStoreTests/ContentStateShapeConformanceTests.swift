import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: content-state shapes and refusals")
struct ContentStateShapeConformanceTests {
    static let level = ContentStateShape(properties: ["level": .init(.number)], required: ["level"])
    static let levelAndNote = ContentStateShape(properties: ["level": .init(.number), "note": .init(.string)], required: ["level"])

    static func stored(_ shape: ContentStateShape, type: String = "MatchAttributes", source: ContentStateShapeSource = .app, at: Date = Fixture.start)
        -> StoredContentStateShape
    {
        StoredContentStateShape(bundleID: "com.example.app", attributesType: type, shape: shape, source: source, updatedAt: at)
    }

    @Test(arguments: StoreKind.available)
    func aShapeIsStoredReplacedAndReadBack(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            #expect(try await store.contentStateShape(bundleID: "com.example.app", attributesType: "MatchAttributes") == nil)
            let first = try await store.putContentStateShape(Self.stored(Self.level, source: .backend))
            #expect(first.revision == 1)
            #expect(first.shape == Self.level)
            let second = try await store.putContentStateShape(Self.stored(Self.levelAndNote, at: Fixture.start + 60))
            #expect(second.revision == 2)
            #expect(second.source == .app)
            _ = try await store.putContentStateShape(Self.stored(Self.level, type: "OtherAttributes"))
            try await withReopened(harness) { reopened throws in
                #expect(try await reopened.contentStateShape(bundleID: "com.example.app", attributesType: "MatchAttributes") == second)
                let all = try await reopened.contentStateShapes(bundleIDs: nil)
                #expect(all.map(\.attributesType) == ["MatchAttributes", "OtherAttributes"])
                #expect(try await reopened.contentStateShapes(bundleIDs: ["com.other"]).isEmpty)
                #expect(try await reopened.contentStateShapes(bundleIDs: ["com.example.app"]).count == 2)
            }
        }
    }

    /// A single send's one read: the activity (its content-state unread) with its app's shape for its type.
    @Test(arguments: StoreKind.available)
    func anActivityToSendIsReadWithItsAppsShape(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(try await store.activityToSend(id: "ride") == nil)
            _ = try await store.register(Fixture.registration("ride"))
            _ = try await store.recordContentState(
                [(activityID: "ride", timestamp: Fixture.start + 5)], contentState: ["hp": 5], acceptedAt: Fixture.start)
            var activity = try #require(try await store.activity(id: "ride"))
            #expect(activity.lastContentState == ["hp": 5])
            activity.lastContentState = nil
            #expect(try await store.activityToSend(id: "ride") == ActivityToSend(activity: activity, shape: nil), "no shape stored yet")

            // Another type's shape and another app's are not the activity's.
            _ = try await store.putContentStateShape(Self.stored(Self.level, type: "OtherAttributes"))
            _ = try await store.putContentStateShape(
                StoredContentStateShape(
                    bundleID: "com.other", attributesType: "MatchAttributes", shape: Self.level, source: .app, updatedAt: Fixture.start))
            #expect(try await store.activityToSend(id: "ride")?.shape == nil)

            let shape = try await store.putContentStateShape(Self.stored(Self.levelAndNote, source: .backend, at: Fixture.start + 60))
            let read = try #require(try await store.activityToSend(id: "ride"))
            #expect(read.activity == activity)
            #expect(read.shape == shape)
            #expect(read.shape == (try await store.contentStateShape(bundleID: "com.example.app", attributesType: "MatchAttributes")))
        }
    }

    /// A batch's one read: each stored activity among the ids (more than one statement's 500), with its app's
    /// shape for its type and the activity a renewal linked to it; unknown ids left out.
    @Test(arguments: StoreKind.available)
    func activitiesToSendAreReadTogetherWithShapesAndRenewalLinks(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let ids = (0..<520).map { "ride-\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            var other = Fixture.registration("other-type")
            other.attributesType = "OtherAttributes"
            _ = try await store.register(other)
            let shape = try await store.putContentStateShape(Self.stored(Self.levelAndNote, source: .backend))
            _ = try await store.planRenewal(
                RenewalPlan(
                    activityID: "ride-3", userID: "user-1", attributesType: "MatchAttributes", renewBefore: 3600, attributes: [:], alert: [:],
                    renews: nil))
            #expect(try await store.markRenewalStarting(activityID: "ride-3", tokenIDs: [], at: t))
            #expect(try await store.linkRenewal(activityID: "ride-3", to: "ride-7", at: t + 1, journal: nil) != nil)
            _ = try await store.recordContentState([(activityID: "ride-9", timestamp: t + 5)], contentState: ["hp": 5], acceptedAt: t)

            let read = try await store.activitiesToSend(ids: ids + ["other-type", "nobody", "ride-1"])
            let byID = Dictionary(uniqueKeysWithValues: read.map { ($0.activity.activityID, $0) })
            #expect(read.count == ids.count + 1, "each stored one once; nobody left out")
            #expect(byID["ride-3"]?.renewedBy == "ride-7")
            #expect(read.filter { $0.renewedBy != nil }.count == 1)
            #expect(byID["other-type"]?.shape == nil && byID["ride-0"]?.shape == shape && byID["ride-519"]?.shape == shape)
            var ride9 = try #require(try await store.activity(id: "ride-9"))
            ride9.lastContentState = nil
            #expect(byID["ride-9"] == ActivityToSend(activity: ride9, shape: shape), "as a single send reads it")
            #expect(try await store.activitiesToSend(ids: []).isEmpty)
        }
    }

    /// Two merges read the same revision: the first write wins, the second learns it must read again.
    @Test(arguments: StoreKind.available)
    func replaceIsACompareAndSet(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let created = try #require(try await store.replaceContentStateShape(Self.stored(Self.level), ifRevision: nil))
            #expect(created.revision == 1)
            #expect(try await store.replaceContentStateShape(Self.stored(Self.levelAndNote), ifRevision: nil) == nil)
            let merged = try #require(try await store.replaceContentStateShape(Self.stored(Self.levelAndNote), ifRevision: 1))
            #expect(merged.revision == 2)
            #expect(try await store.replaceContentStateShape(Self.stored(Self.level), ifRevision: 1) == nil)
            #expect(try await store.contentStateShape(bundleID: "com.example.app", attributesType: "MatchAttributes")?.shape == Self.levelAndNote)
        }
    }

    @Test(arguments: StoreKind.available)
    func aGroupsShapesAreThoseOfItsMembersTypes(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.register(Fixture.registration("a", groups: ["match"]))
            _ = try await store.putContentStateShape(Self.stored(Self.level))
            _ = try await store.putContentStateShape(Self.stored(Self.level, type: "OtherAttributes"))
            #expect(try await store.contentStateShapes(inGroup: "match").map(\.attributesType) == ["MatchAttributes"])
            #expect(try await store.contentStateShapes(inGroup: "nobody").isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func refusalsAreCountedByFieldAndKeptInTheActivitysHistory(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.register(Fixture.registration("a"))
            func refusal(_ field: String, _ rule: String, activity: String?, at seconds: Double) -> ContentStateRefusal {
                ContentStateRefusal(
                    bundleID: "com.example.app", attributesType: "MatchAttributes", target: activity.map { "activity:" + $0 } ?? "group:match",
                    activityID: activity, field: field, rule: rule, message: "\(field) \(rule) at \(seconds)", at: Fixture.start + seconds)
            }
            try await store.recordContentStateRefusals([refusal("level", "missing", activity: "a", at: 1)])
            try await store.recordContentStateRefusals([
                refusal("level", "missing", activity: nil, at: 2), refusal("note", "type", activity: "a", at: 3),
            ])
            let counts = try await store.contentStateRefusalCounts(bundleIDs: nil)
            #expect(
                counts.map { "\($0.field) \($0.rule) \($0.refusals) \($0.lastTarget)" } == ["level missing 2 group:match", "note type 1 activity:a"])
            #expect(try await store.contentStateRefusalCounts(bundleIDs: ["com.other"]).isEmpty)
            let history = try await store.contentStateRefusals(activityID: "a")
            #expect(history.map(\.field) == ["note", "level"])
            #expect(history.first?.at == Fixture.start + 3)
            // The history keeps the newest few.
            let many = (0..<(SQLPushStore.refusalsKeptPerActivity + 5)).map { refusal("level", "null", activity: "a", at: 10 + Double($0)) }
            try await store.recordContentStateRefusals(many)
            let kept = try await store.contentStateRefusals(activityID: "a")
            #expect(kept.count == SQLPushStore.refusalsKeptPerActivity)
            #expect(kept.first?.at == Fixture.start + 10 + Double(many.count - 1))
        }
    }
}
