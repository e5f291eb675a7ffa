import APNsCore
import Foundation
import Logging
import PushStore

/// The webhook's intake: what the domain reports is stored in the store's webhook outbox (one
/// operation's events in one write), then the ``WebhookService`` is woken to deliver it. Stored events
/// outlive a restart or a crash. Without a webhook URL nothing is stored.
final class WebhookQueue: DomainEvents, Sendable {
    private let store: any WebhookOutbox
    private let isEnabled: Bool
    private let clock: any WallClock
    private let logger: Logger
    private let signal: OutboxSignal

    init(store: any WebhookOutbox, isEnabled: Bool, clock: any WallClock, logger: Logger, signal: OutboxSignal) {
        self.store = store
        self.isEnabled = isEnabled
        self.clock = clock
        self.logger = logger
        self.signal = signal
    }

    func notify(_ events: [WebhookEvent]) async {
        guard isEnabled, !events.isEmpty else { return }
        let now = clock.now()
        let encoder = APIResponse.encoder()
        var deliveries: [WebhookDelivery] = []
        deliveries.reserveCapacity(events.count)
        for event in events {
            do {
                deliveries.append(WebhookDelivery(event: event.event.rawValue, body: try encoder.encode(event), createdAt: now))
            } catch {
                logger.error("a webhook event could not be encoded; it is not delivered", metadata: Self.describe([event], error: error))
            }
        }
        guard !deliveries.isEmpty else { return }
        do {
            try await store.enqueueWebhooks(deliveries)
        } catch {
            logger.error("storing webhook events failed; they are not delivered", metadata: Self.describe(events, error: error))
            return
        }
        signal.wake(items: deliveries.count)
    }

    /// The kinds and ids of `events` for a log line (the first ten ids, then how many more).
    static func describe(_ events: [WebhookEvent], error: any Error) -> Logger.Metadata {
        let kinds = Set(events.map(\.event.rawValue)).sorted().joined(separator: ",")
        let ids = events.map { $0.activityId ?? $0.pushToStartTokenId.map { "pushToStartToken:" + $0 } ?? "-" }
        let shown = ids.prefix(10).joined(separator: ",") + (ids.count > 10 ? " and \(ids.count - 10) more" : "")
        return ["event": "\(kinds)", "ids": "\(shown)", "count": "\(events.count)", "error": "\(error)"]
    }
}
