import APNsClient
import APNsCore

/// What the delivery workers send through (device pushes, and broadcasts through `ChannelSending`): `APNsClient` (made with `ServerConfiguration.apnsClientConfiguration`,
/// whose policy only reconnects), or a stand-in in tests.
package protocol PushSending: ChannelSending {
    /// Sends one push once and returns its answer or failure: one outbox attempt. The sender may send it
    /// again at once within the call (a new connection after the old one went away under it, a renewed
    /// provider token) and counts those sends in `attempts`, but never waits to retry: back-off is the
    /// outbox's.
    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome

    /// Sends a page of pushes, each as one outbox attempt as `deliver(_:)` does, and returns their
    /// outcomes in the page's order. `APNsClient` sends the page as one batch, without a task per push.
    func deliver(batch requests: [APNsRequest]) async -> [APNsDeliveryOutcome]
}

extension PushSending {
    /// A page through `deliver(_:)`, one task per push: for senders without a batch path of their own
    /// (stand-ins in tests).
    package func deliver(batch requests: [APNsRequest]) async -> [APNsDeliveryOutcome] {
        await withTaskGroup(of: (Int, APNsDeliveryOutcome).self) { group in
            for (position, request) in requests.enumerated() {
                group.addTask { (position, await deliver(request)) }
            }
            var outcomes = [APNsDeliveryOutcome?](repeating: nil, count: requests.count)
            for await (position, outcome) in group { outcomes[position] = outcome }
            return outcomes.compactMap { $0 }
        }
    }
}

extension APNsClient: PushSending {}
