import APNsClient
import APNsCore
import Foundation
import PushStore

/// What the delivery workers' queues share to send device pushes: the APNs sender, the one reading of
/// its answers (``verdict(_:for:sendStarted:sentAt:)``) with the outbox's back-off, and the report of the
/// tokens a batch or page marked invalid.
struct DeviceDelivery: Sendable {
    let sender: any PushSending
    /// Told when recorded changes have stored webhook events (tokens marked invalid, activities ended).
    let events: any DomainEvents
    let context: WorkerContext

    /// The token and bundle id a device push goes to, as read at send time (so a rotated token is used).
    struct ResolvedTarget: Sendable {
        var token: DeviceToken
        var bundleID: String
    }

    /// A device push and where it goes.
    struct DevicePush: Sendable {
        var item: OutboxItem
        var target: ResolvedTarget
    }

    /// What a batch of device pushes came to: each push's verdict with its position, and the tokens APNs
    /// refused for good.
    struct Delivered: Sendable {
        var verdicts: [(position: Int, verdict: Verdict)] = []
        var invalidations: [TokenInvalidation] = []
    }

    /// One attempt at each push (an outbox batch's or a group page's), sent as one batch: the sender
    /// spreads it over its connections without a task per push. Returns each push's verdict with its
    /// position in `pushes`. The sender never backs off (its only re-sends are immediate, on a new
    /// connection); whether and when to try again is the verdict's.
    func deliver(_ pushes: [DevicePush]) async -> Delivered {
        var delivered = Delivered()
        var verdicts: [(position: Int, verdict: Verdict)] = []
        verdicts.reserveCapacity(pushes.count)
        var requests: [APNsRequest] = []
        var sending: [Int] = []
        requests.reserveCapacity(pushes.count)
        sending.reserveCapacity(pushes.count)
        for (position, push) in pushes.enumerated() {
            do {
                requests.append(try request(push))
                sending.append(position)
            } catch {
                let refused = DeliveryResult(pushID: push.item.pushID, outcome: .rejected, reason: error.description, attempts: push.item.attempts)
                verdicts.append((position, .final(refused)))
            }
        }
        guard !requests.isEmpty else {
            delivered.verdicts = verdicts
            return delivered
        }
        let sendStarted = context.clock.now()
        let outcomes = await sender.deliver(batch: requests)
        let sentAt = context.clock.now()
        for (position, outcome) in zip(sending, outcomes) {
            let (decided, refusedToken) = verdict(outcome, for: pushes[position], sendStarted: sendStarted, sentAt: sentAt)
            verdicts.append((position, decided))
            if let refusedToken { delivered.invalidations.append(refusedToken) }
        }
        delivered.verdicts = verdicts
        return delivered
    }

    /// The push as an APNs request: the Live Activity headers (topic, priority, expiration, collapse id,
    /// its id as `apns-id`) and the stored payload.
    private func request(_ push: DevicePush) throws(APNsRequestHeaders.ValidationError) -> APNsRequest {
        let item = push.item
        let headers = try APNsRequestHeaders.liveActivity(
            bundleID: push.target.bundleID, priority: item.priority,
            expiration: item.expiration.map(APNsExpiration.at) ?? .serverDefault,
            collapseID: item.collapseKey, apnsID: item.pushID)
        return APNsRequest(token: push.target.token, headers: headers, body: item.payload)
    }
}
