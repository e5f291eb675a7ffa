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
}

extension APNsClient: PushSending {}
