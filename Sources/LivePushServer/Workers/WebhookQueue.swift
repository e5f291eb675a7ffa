import APNsCore
import Foundation
import Logging
import PushStore

/// The webhook's intake (the transactional outbox pattern): it gives the store operations that change
/// what the webhook reports a ``WebhookJournal``, which turns the store's facts into `WebhookEvent`
/// JSON rows that the operation inserts into the webhook outbox in its own transaction; once the
/// operation committed, the ``WebhookWorker`` is woken to deliver them. So an event is stored exactly
/// when its change is, and a crash between the change and the report cannot lose it. Without a webhook
/// URL there is no journal and nothing is stored.
final class WebhookQueue: DomainEvents, Sendable {
    private let isEnabled: Bool
    private let clock: any WallClock
    private let logger: Logger
    private let signal: OutboxSignal

    init(isEnabled: Bool, clock: any WallClock, logger: Logger, signal: OutboxSignal) {
        self.isEnabled = isEnabled
        self.clock = clock
        self.logger = logger
        self.signal = signal
    }

    func journal(endCause: WebhookEvent.EndCause) -> WebhookJournal? {
        makeJournal(endCause: endCause)
    }

    var tokenJournal: WebhookJournal? { makeJournal(endCause: nil) }

    func committed(_ count: Int) {
        if isEnabled, count > 0 { signal.wake(items: count) }
    }

    private func makeJournal(endCause: WebhookEvent.EndCause?) -> WebhookJournal? {
        guard isEnabled else { return nil }
        let clock = self.clock
        let logger = self.logger
        return WebhookJournal { facts in
            let now = clock.now()
            let encoder = APIResponse.encoder()
            var deliveries: [WebhookDelivery] = []
            deliveries.reserveCapacity(facts.count)
            for fact in facts {
                guard let event = Self.event(fact, endCause: endCause) else {
                    logger.error("a store change has no webhook event for its journal; it is not reported", metadata: ["fact": "\(fact)"])
                    continue
                }
                do {
                    deliveries.append(WebhookDelivery(event: event.event.rawValue, body: try encoder.encode(event), createdAt: now))
                } catch {
                    logger.error("a webhook event could not be encoded; it is not delivered", metadata: Self.describe([event], error: error))
                }
            }
            return deliveries
        }
    }

    /// The event a store fact is reported as (the JSON the webhook has always received); nil for an end
    /// given to a journal without its cause.
    static func event(_ fact: WebhookFact, endCause: WebhookEvent.EndCause?) -> WebhookEvent? {
        switch fact {
        case .activityEnded(let activityID, let userID, let at):
            return endCause.map { .activityEnded(activityID, userID: userID, cause: $0, at: at) }
        case .activityTokenInvalid(let activityID, let userID, let token, let reason, let at):
            return WebhookEvent(event: .tokenInvalid, activityID: activityID, userID: userID, reason: reason, token: token.shortened, at: at)
        case .pushToStartTokenInvalid(let tokenID, let userID, let token, let reason, let at):
            return WebhookEvent(
                event: .tokenInvalid, pushToStartTokenID: tokenID.lowercased, userID: userID,
                reason: reason, token: token.shortened, at: at)
        case .activityRenewed(let activityID, let userID, let renewedBy, let at):
            return WebhookEvent(event: .activityRenewed, activityID: activityID, userID: userID, reason: "renewed", at: at, renewedBy: renewedBy)
        case .renewalFailed(let activityID, let userID, let reason, let at):
            return WebhookEvent(event: .renewalFailed, activityID: activityID, userID: userID, reason: reason, at: at)
        case .liveActivityNotStarted(let userID, let key, let reason, let at):
            return WebhookEvent(event: .liveActivityNotStarted, userID: userID, reason: reason, at: at, key: key)
        }
    }

    /// The kinds and ids of `events` for a log line (the first ten ids, then how many more).
    static func describe(_ events: [WebhookEvent], error: any Error) -> Logger.Metadata {
        let kinds = Set(events.map(\.event.rawValue)).sorted().joined(separator: ",")
        let ids = events.map { $0.activityID ?? $0.pushToStartTokenID.map { "pushToStartToken:" + $0 } ?? "-" }
        let shown = ids.prefix(10).joined(separator: ",") + (ids.count > 10 ? " and \(ids.count - 10) more" : "")
        return ["event": "\(kinds)", "ids": "\(shown)", "count": "\(events.count)", "error": "\(error)"]
    }
}
