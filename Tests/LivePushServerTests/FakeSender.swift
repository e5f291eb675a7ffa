import APNsClient
import APNsCore
import Foundation
import LivePushServer

/// A stand-in APNs: records every request and answers from a script (then 200).
final class FakeSender: PushSending, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [Result<APNsResponse, APNsClientError>] = []
    private var sent: [APNsRequest] = []

    /// Answers the next calls with these, in order; afterwards every call gets 200.
    func enqueue(_ answers: [Result<APNsResponse, APNsClientError>]) {
        lock.withLock { script.append(contentsOf: answers) }
    }

    var requests: [APNsRequest] { lock.withLock { sent } }

    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        let answer: Result<APNsResponse, APNsClientError> = lock.withLock {
            sent.append(request)
            return script.isEmpty ? .success(APNsResponse(status: 200, apnsID: request.headers.apnsID?.uuidString.lowercased())) : script.removeFirst()
        }
        return APNsDeliveryOutcome(result: answer, attempts: 1, duration: .milliseconds(1))
    }
}
