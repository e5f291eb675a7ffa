import APNsCore
import Foundation
import LiveActivity
@testable import LivePushServer
import Logging
import PushStore
import Testing

/// The webhook's intake: one operation's events in one store write, nothing without a webhook, and a
/// failed write that never fails the caller.
@Suite struct WebhookQueueTests {
    private func queue(_ outbox: RecordingWebhookOutbox, enabled: Bool = true, signal: OutboxSignal = OutboxSignal(itemsPerWorker: 8)) -> WebhookQueue {
        var logger = Logger(label: "livepush.webhook.test")
        logger.logLevel = .critical
        return WebhookQueue(store: outbox, isEnabled: enabled, clock: SystemWallClock(), logger: logger, signal: signal)
    }

    private func ended(_ count: Int) -> [WebhookEvent] {
        (0..<count).map { .activityEnded("a\($0)", userId: "u\($0)", cause: .backend, at: Date(timeIntervalSince1970: 1_777_636_800)) }
    }

    @Test func aGroupEndsEventsAreStoredInOneWrite() async throws {
        let outbox = RecordingWebhookOutbox()
        let signal = OutboxSignal(itemsPerWorker: 8)
        let before = signal.generation
        await queue(outbox, signal: signal).notify(ended(10_000))
        #expect(outbox.writes.map(\.count) == [10_000])
        #expect(signal.generation != before, "the webhook service is woken")
        let first = try #require(outbox.writes.first?.first)
        #expect(first.event == "activity.ended" && first.attempts == 0)
        let json = try JSONValue.parse(first.body)
        #expect(json["activityId"]?.stringValue == "a0" && json["reason"]?.stringValue == "backend")
        #expect(json["at"]?.stringValue == "2026-05-01T12:00:00Z")
        #expect(Set(outbox.writes[0].map(\.id)).count == 10_000, "each event has its own id")
    }

    @Test func withoutAWebhookNothingIsWritten() async {
        let outbox = RecordingWebhookOutbox()
        await queue(outbox, enabled: false).notify(ended(3))
        await queue(outbox).notify([])
        #expect(outbox.writes.isEmpty)
    }

    @Test func aFailedWriteIsOnlyLogged() async {
        let outbox = RecordingWebhookOutbox(failing: true)
        let signal = OutboxSignal(itemsPerWorker: 8)
        let before = signal.generation
        await queue(outbox, signal: signal).notify(ended(2))
        #expect(outbox.writes.count == 1 && signal.generation == before, "nothing stored, nobody woken, nothing thrown")
        let metadata = WebhookQueue.describe(ended(12), error: PushStoreError.unavailable(detail: "down"))
        #expect(metadata["event"] == "activity.ended" && metadata["count"] == "12")
        #expect(metadata["ids"]?.description.hasSuffix("a9 and 2 more") == true, "\(metadata)")
    }
}

/// Records each `enqueueWebhooks` call; `failing` makes it throw.
final class RecordingWebhookOutbox: WebhookOutbox, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [[WebhookDelivery]] = []
    private let failing: Bool

    init(failing: Bool = false) { self.failing = failing }

    var writes: [[WebhookDelivery]] { lock.withLock { recorded } }

    func enqueueWebhooks(_ deliveries: [WebhookDelivery]) async throws(PushStoreError) {
        lock.withLock { recorded.append(deliveries) }
        if failing { throw .unavailable(detail: "the test store is down") }
    }

    func claimWebhooks(owner: String, limit: Int, now: Date, lease: TimeInterval) async throws(PushStoreError) -> [WebhookDelivery] { [] }
    func completeWebhook(id: UUID, owner: String) async throws(PushStoreError) {}
    func rescheduleWebhook(id: UUID, owner: String, nextAttemptAt: Date, attempts: Int, lastError: String) async throws(PushStoreError) {}
    func releaseWebhooks(owner: String) async throws(PushStoreError) -> Int { 0 }
    func webhookDepth() async throws(PushStoreError) -> Int { 0 }
}
