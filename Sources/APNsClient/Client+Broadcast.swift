import APNsCore
import Foundation

extension APNsClient {
    /// Sends a broadcast to a channel (docs/apns-protocol.md §10.2) on the device-push endpoint's
    /// connections, with the same provider token, deadline and retry rules as device pushes (no retry is
    /// scheduled past the request's expiration). Throws the typed reason when APNs rejects it.
    public func broadcast(_ request: APNsBroadcastRequest) async throws(APNsBroadcastError) -> APNsBroadcastReceipt {
        let deadline: Date? = if case .at(let date) = request.expiration { date } else { nil }
        let lane: KeyLane
        do {
            lane = try self.lane(forTopic: request.bundleID)
        } catch {
            throw .transport(error)
        }
        let exchange = await exchange(
            WireRequest(request), on: lane.pool, tokens: lane.tokens, deadline: deadline, subject: "channel \(request.channelID)")
        let response: WireResponse
        switch exchange.result {
        case .success(let answer): response = answer
        case .failure(let error): throw .transport(error)
        }
        guard response.status == 200 else { throw Self.rejection(response) }
        return APNsBroadcastReceipt(
            channelID: request.channelID, requestID: response.requestID, uniqueID: response.uniqueID,
            attempts: exchange.attempts
        )
    }

    /// A non-success answer as a typed error.
    static func rejection(_ response: WireResponse) -> APNsBroadcastError {
        .rejected(
            status: response.status, reason: response.reason ?? .other("HTTP \(response.status)"),
            requestID: response.requestID
        )
    }
}
