import APNsClient
import APNsCore
import Foundation

/// The server's broadcasts and channel management through `APNsClient`: the same pool, provider token and
/// reconnect-only policy as device pushes; channel management on the client's management endpoint.
extension APNsClient: ChannelSending {
    package func createChannel(bundleID: String, storagePolicy: Int) async -> ChannelAnswer {
        guard let policy = APNsMessageStoragePolicy(rawValue: storagePolicy) else {
            return .refused(status: 400, reason: APNsReason.missingChannelQueueSize.rawValue)
        }
        do {
            return .accepted(id: try await createChannel(bundleID: bundleID, storagePolicy: policy).channelID.base64)
        } catch {
            return Self.answer(error)
        }
    }

    package func deleteChannel(bundleID: String, apnsChannelID: String) async -> ChannelAnswer {
        do {
            try await deleteChannel(bundleID: bundleID, channelID: try APNsChannelID(apnsChannelID))
            return .accepted(id: nil)
        } catch let error as APNsBroadcastError {
            return Self.answer(error)
        } catch {
            return .refused(status: 400, reason: APNsReason.badChannelID.rawValue)
        }
    }

    package func broadcast(_ attempt: BroadcastAttempt) async -> ChannelAnswer {
        let request: APNsBroadcastRequest
        do {
            request = try APNsBroadcastRequest(
                bundleID: attempt.bundleID, channelID: try APNsChannelID(attempt.apnsChannelID), priority: attempt.priority,
                expiration: attempt.expiration.map(APNsExpiration.at) ?? .immediately, requestID: attempt.requestID, body: attempt.payload)
        } catch {
            // Checked before sending (bundle id, size): no retry can fix it.
            return .refused(status: 400, reason: "\(error)")
        }
        do {
            return .accepted(id: try await broadcast(request).uniqueID)
        } catch {
            return Self.answer(error)
        }
    }

    static func answer(_ error: APNsBroadcastError) -> ChannelAnswer {
        switch error {
        case .rejected(let status, let reason, _): return .refused(status: status, reason: reason.rawValue)
        case .transport(let failure): return failure == .shutDown ? .interrupted : .failed(failure.description)
        case .invalidRequest(let detail): return .refused(status: 400, reason: detail)
        case .unexpectedAnswer(let detail): return .failed(detail)
        }
    }
}
