import Foundation
import LiveActivity
import PushStore

/// Each send path asks ``ContentStateGate`` once, with the shapes of the attributes types it reaches.
extension PushService {
    var contentStates: ContentStateGate { ContentStateGate(store: store, clock: clock, logger: logger) }

    /// What the payload will carry as content-state: an update or start without one carries `{}`; an end
    /// without one carries none (and is not checked).
    static func sentContentState(_ kind: LiveActivityEvent, _ content: PushContent) -> JSONValue? {
        kind == .end ? content.contentState : (content.contentState ?? .object([:]))
    }

    /// An update or end of one activity: its app's shape for its attributes type.
    func checkContentState(_ kind: LiveActivityEvent, _ content: PushContent, for activity: ActivityRecord) async throws(DomainError) {
        let shape = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShape(bundleID: activity.bundleID, attributesType: activity.attributesType)
        }
        try await checkContentState(kind, content, for: activity, shape: shape)
    }

    /// An update or end of one activity, against its app's shape read with it (nil: none is stored).
    func checkContentState(_ kind: LiveActivityEvent, _ content: PushContent, for activity: ActivityRecord, shape: StoredContentStateShape?)
        async throws(DomainError)
    {
        guard let shape else { return }
        try await contentStates.check(
            Self.sentContentState(kind, content), against: [shape], target: "activity:" + activity.activityID, activityID: activity.activityID)
    }

    /// A group send: the shape of every attributes type among the group's members; any that refuses refuses the send.
    func checkContentState(_ kind: LiveActivityEvent, _ content: PushContent, forGroup groupID: String) async throws(DomainError) {
        let shapes = try await stored { () async throws(PushStoreError) in try await store.contentStateShapes(inGroup: groupID) }
        try await contentStates.check(Self.sentContentState(kind, content), against: shapes, target: "group:" + groupID, activityID: nil)
    }

    /// A push-to-start (or a renewal's start): the shapes of the tokens' apps for their attributes type.
    func checkStartContentState(_ content: PushContent, tokens: [PushToStartTokenRecord], target: String) async throws(DomainError) {
        let keys = Set(tokens.map { "\($0.bundleID)\u{0}\($0.attributesType)" })
        guard !keys.isEmpty else { return }
        let shapes = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShapes(bundleIDs: Array(Set(tokens.map(\.bundleID))))
        }.filter { keys.contains("\($0.bundleID)\u{0}\($0.attributesType)") }
        try await contentStates.check(Self.sentContentState(.start, content), against: shapes, target: target, activityID: nil)
    }

    /// A broadcast: a channel's subscribers may be activities of any attributes type of its app (the server
    /// does not learn which), so every shape stored for the channels' apps must accept it.
    func checkBroadcastContentState(_ kind: LiveActivityEvent, _ content: PushContent, channels: [ChannelRecord]) async throws(DomainError) {
        guard let first = channels.first else { return }
        let shapes = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShapes(bundleIDs: Array(Set(channels.map(\.bundleID))))
        }
        try await contentStates.check(
            Self.sentContentState(kind, content), against: shapes, target: "channel:" + first.id.lowercased, activityID: nil)
    }
}
