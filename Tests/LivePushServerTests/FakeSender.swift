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

    private var answerLatency: Duration = .zero
    /// How long each push waits for its answer (after it is recorded as sent).
    var latency: Duration {
        get { lock.withLock { answerLatency } }
        set { lock.withLock { answerLatency = newValue } }
    }

    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        let (answer, latency): (Result<APNsResponse, APNsClientError>, Duration) = lock.withLock {
            sent.append(request)
            let answer: Result<APNsResponse, APNsClientError> =
                script.isEmpty
                ? .success(APNsResponse(status: 200, apnsID: request.headers.apnsID?.uuidString.lowercased())) : script.removeFirst()
            return (answer, answerLatency)
        }
        if latency > .zero { try? await Task.sleep(for: latency) }
        return APNsDeliveryOutcome(result: answer, attempts: 1, duration: .milliseconds(1))
    }

    private var batchSizes: [Int] = []
    /// How many pushes each `deliver(batch:)` call carried, in order.
    var batches: [Int] { lock.withLock { batchSizes } }

    /// Records the batch, then answers each push as `deliver(_:)` does, concurrently (as a page of
    /// `APNsClient` goes out), in the batch's order.
    func deliver(batch requests: [APNsRequest]) async -> [APNsDeliveryOutcome] {
        lock.withLock { batchSizes.append(requests.count) }
        return await withTaskGroup(of: (Int, APNsDeliveryOutcome).self) { group in
            for (position, request) in requests.enumerated() {
                group.addTask { (position, await self.deliver(request)) }
            }
            var outcomes = [APNsDeliveryOutcome?](repeating: nil, count: requests.count)
            for await (position, outcome) in group { outcomes[position] = outcome }
            return outcomes.compactMap { $0 }
        }
    }

    // Broadcast channels: a stand-in for APNs' channel management and broadcast route.
    private var channelScript: [ChannelAnswer] = []
    private var liveChannels: [String: Int] = [:]
    private var broadcastsSent: [BroadcastAttempt] = []
    private var channelSerial = 0

    /// Answers the next broadcast or channel calls with these, in order; afterwards they succeed.
    func enqueueChannelAnswers(_ answers: [ChannelAnswer]) { lock.withLock { channelScript.append(contentsOf: answers) } }
    var broadcasts: [BroadcastAttempt] { lock.withLock { broadcastsSent } }
    var channelsAtAPNs: [String: Int] { lock.withLock { liveChannels } }

    func createChannel(bundleID: String, storagePolicy: Int) async -> ChannelAnswer {
        lock.withLock {
            if !channelScript.isEmpty { return channelScript.removeFirst() }
            channelSerial += 1
            let id = Data("channel-\(channelSerial)".utf8).base64EncodedString()
            liveChannels[id] = storagePolicy
            return .accepted(id: id)
        }
    }

    func deleteChannel(bundleID: String, apnsChannelID: String) async -> ChannelAnswer {
        lock.withLock {
            if !channelScript.isEmpty { return channelScript.removeFirst() }
            guard liveChannels.removeValue(forKey: apnsChannelID) != nil else { return .refused(status: 400, reason: "ChannelNotRegistered") }
            return .accepted(id: nil)
        }
    }

    func broadcast(_ attempt: BroadcastAttempt) async -> ChannelAnswer {
        lock.withLock {
            broadcastsSent.append(attempt)
            if !channelScript.isEmpty { return channelScript.removeFirst() }
            guard let policy = liveChannels[attempt.apnsChannelID] else { return .refused(status: 400, reason: "ChannelNotRegistered") }
            if policy == 0, attempt.expiration != nil { return .refused(status: 400, reason: "BadExpirationDate") }
            return .accepted(id: UUID().uuidString.lowercased())
        }
    }
}
