import APNsClient
import APNsCore
import Foundation
import LivePushServer

/// A stand-in APNs that holds every batch it is given until the test opens its gate, then answers each
/// push 200: a page held here is one whose pushes are out but not yet answered or recorded.
final class GatedSender: PushSending, @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var received: [[APNsRequest]] = []

    /// The batches given so far, held or answered.
    var batches: [[APNsRequest]] { lock.withLock { received } }

    /// Answers every held batch and, from now on, every batch at once.
    func open() {
        let held = lock.withLock {
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        for batch in held { batch.resume() }
    }

    func deliver(batch requests: [APNsRequest]) async -> [APNsDeliveryOutcome] {
        await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
            let open = lock.withLock {
                received.append(requests)
                if !isOpen { waiting.append(gate) }
                return isOpen
            }
            if open { gate.resume() }
        }
        return requests.map { request in
            APNsDeliveryOutcome(
                result: .success(APNsResponse(status: 200, apnsID: request.headers.apnsID?.uuidString.lowercased())), attempts: 1,
                duration: .milliseconds(1))
        }
    }

    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        await deliver(batch: [request])[0]
    }
}
