import APNsClient
import APNsCore

/// What the delivery workers send through: `APNsClient`, or a stand-in in tests.
public protocol PushSending: Sendable {
    /// Sends one push (with the sender's own short retries) and returns its final answer or failure.
    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome
}

extension APNsClient: PushSending {}
