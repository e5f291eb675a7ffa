import Foundation
import LiveActivity
import PushStore

/// Starts for an audience: one request starts an activity on every device of many users (or of every
/// user with a valid push-to-start token for the type), stored as one record and sent in pages of users
/// by the workers (``AudiencePageQueue``), like a group send.
extension PushService {
    /// Accepts a start for `audience`: checks the payload as a user's start is checked (the same payload and
    /// the content-state shapes of the type), resolves `inputPushChannel`, stores one record and answers at
    /// once, whatever the audience's size.
    func start(audience: AudienceStartAudience, _ content: PushContent, createdBy: String) async throws(DomainError) -> AudienceStartStatus {
        var content = content
        let attributesType = content.attributesType ?? ""
        var channel: ChannelRecord?
        if let requested = content.inputPushChannel {
            // The channel's app is the audience's: only push-to-start tokens of that app are targets.
            let resolved = try await subscriptionChannel(requested, for: [])
            content.inputPushChannelAPNsID = resolved.apnsChannelID
            channel = resolved
        }
        let bundleID = channel?.bundleID
        if audience == .everyoneWithToken {
            let anyone = try await stored { () async throws(PushStoreError) in
                try await store.hasValidPushToStartTokens(attributesType: attributesType, bundleID: bundleID)
            }
            guard anyone else {
                throw .notFound(
                    "everyone",
                    "no user has a valid push-to-start token for '\(attributesType)'\(bundleID.map { " of \($0)" } ?? ""); apps store them with PUT /v1/push-to-start-tokens"
                )
            }
        }
        try await checkAudienceStartContentState(content, attributesType: attributesType, bundleID: bundleID)
        let now = clock.now()
        let payload = try content.validatedPayload(kind: .start, timestamp: now)
        let userIDs: [String]? =
            switch audience {
            case .users(let ids): ids
            case .everyoneWithToken: nil
            }
        let start = AudienceStart(
            attributesType: attributesType, userIDs: userIDs, bundleID: bundleID, channelID: channel?.id,
            template: sendTemplate(content, payload: payload, timestamp: now, now: now), acceptedAt: now, createdBy: createdBy)
        try await stored { () async throws(PushStoreError) in try await store.createAudienceStart(start) }
        signal.wake(pagesFor: settings.workerCount)
        logger.info(
            "audience start accepted",
            metadata: [
                "sendId": "\(start.sendID.lowercased)", "attributesType": "\(attributesType)",
                "users": "\(userIDs.map { "\($0.count)" } ?? "everyone")",
            ])
        return AudienceStartStatus(start)
    }

    /// A send's progress by its id: a group send's, or an audience start's.
    func send(id: String) async throws(DomainError) -> SendStatus {
        if let uuid = UUID(uuidString: id),
            let start = try await stored({ () async throws(PushStoreError) in try await store.audienceStart(id: uuid) })
        {
            return .audience(AudienceStartStatus(start))
        }
        return .group(try await groupSend(id: id))
    }

    /// The shapes an audience start's content-state must fit: every app's shape for the type (only the
    /// channel's app when it names one), since the audience's devices are not read until its pages are.
    func checkAudienceStartContentState(_ content: PushContent, attributesType: String, bundleID: String?) async throws(DomainError) {
        let shapes = try await stored { () async throws(PushStoreError) in
            try await store.contentStateShapes(bundleIDs: bundleID.map { [$0] })
        }.filter { $0.attributesType == attributesType }
        try await contentStates.check(Self.sentContentState(.start, content), against: shapes, target: "audience:" + attributesType, activityID: nil)
    }
}

/// A send as `GET /v1/sends/{sendId}` shows it.
enum SendStatus: Sendable, Hashable {
    case group(GroupSendStatus)
    case audience(AudienceStartStatus)
}
