import APNsClient
import APNsCore
import Foundation
import PushStore

extension DeliveryService {
    /// What one attempt at a push comes to, for outbox batches and group pages alike.
    enum Verdict: Sendable {
        /// Done: the outcome to record.
        case final(DeliveryResult)
        /// To try again: the push with its attempts, next attempt and last error set.
        case retry(OutboxItem)
    }

    /// The one reading of a device push's answer: ``DeliveryDecision`` says what the answer means; this
    /// turns it into the push's result, marks a dead token invalid, and applies the outbox's back-off.
    /// - Parameters:
    ///   - sendStarted: when the batch was sent; a token is marked invalid as of then, so a token the app
    ///     reported again since is not overruled.
    ///   - sentAt: when the answers were in.
    func verdict(_ outcome: APNsDeliveryOutcome, for push: DevicePush, sendStarted: Date, sentAt: Date) async -> Verdict {
        let item = push.item
        // Counts requests sent to APNs, the sender's immediate re-sends included.
        let attempts = item.attempts + outcome.attempts
        switch DeliveryDecision.classify(outcome) {
        case .accepted(let apnsID):
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .accepted, sentAt: sentAt, apnsID: apnsID, status: 200, attempts: attempts,
                    apnsUniqueID: DeliveryDecision.uniqueID(outcome)))
        case .invalidToken(let status, let reason, let apnsID):
            await invalidate(push.target, item: item, reason: reason, at: sendStarted)
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason.rawValue,
                    attempts: attempts))
        case .rejected(let status, let reason, let apnsID):
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason, attempts: attempts))
        case .retryLater(let lastError, let status):
            return retryLater(item, attempts: attempts, lastError: lastError, status: status, at: sentAt)
        case .interrupted:
            return interrupted(item, at: sentAt)
        }
    }

    /// Tries again after the outbox's back-off (the only back-off a push gets:
    /// `ServerConfiguration.outboxRetryDelay`); past the expiration, the final `expired` result instead.
    /// `backoffAfter`: the attempts the back-off counts, when nothing was sent (a store failure): the
    /// count of sends stays, the back-off grows as after one more.
    func retryLater(_ item: OutboxItem, attempts: Int, backoffAfter: Int? = nil, lastError: String, status: Int?, at date: Date) -> Verdict {
        let next = date.addingTimeInterval(
            context.configuration.outboxRetryDelay(afterAttempts: backoffAfter ?? attempts, random: Double.random(in: 0...1)))
        if let expiration = item.expiration, next >= expiration {
            return .final(
                DeliveryResult(
                    pushID: item.pushID, outcome: .expired, sentAt: date, status: status,
                    reason: "expiration passed while retrying; last error: \(lastError)", attempts: attempts))
        }
        return .retry(item.retry(attempts: attempts, at: next, lastError: lastError))
    }

    /// The client shut down under the push (graceful stop): given back as it was, due at once.
    func interrupted(_ item: OutboxItem, at date: Date) -> Verdict {
        .retry(item.retry(attempts: item.attempts, at: date, lastError: "interrupted by shutdown"))
    }

    /// Marks the target's token invalid after APNs refused it for good, as of `date` (the send): if the
    /// app reported this token again since, APNs' answer does not overrule it. The value is marked
    /// wherever it is stored, as an activity's update token and as a push-to-start token: APNs refused
    /// the value, whichever record the push went to.
    private func invalidate(_ target: ResolvedTarget, item: OutboxItem, reason: APNsReason, at date: Date) async {
        if case .channel = item.target { return }
        do {
            // The token.invalid event is stored in the same transaction as the invalidation.
            if let activity = try await store.markTokenInvalid(
                token: target.token, reason: reason.rawValue, at: date,
                journal: webhook.tokenJournal)
            {
                context.logger.info(
                    "token marked invalid",
                    metadata: ["activityId": "\(activity.activityID)", "token": "\(target.token.shortened)", "reason": "\(reason.rawValue)"])
                webhook.committed(1)
            }
            let records = try await store.markPushToStartTokenInvalid(
                token: target.token, reason: reason.rawValue, at: date,
                journal: webhook.tokenJournal)
            for record in records {
                context.logger.info(
                    "push-to-start token marked invalid",
                    metadata: ["tokenId": "\(record.id)", "token": "\(target.token.shortened)", "reason": "\(reason.rawValue)"])
            }
            webhook.committed(records.count)
        } catch {
            context.logger.error("marking a token invalid failed", metadata: ["token": "\(target.token.shortened)", "error": "\(error)"])
        }
    }
}

extension OutboxItem {
    /// The push to try again: its attempts so far, when, and why the last attempt failed (shortened as
    /// the store keeps it).
    fileprivate func retry(attempts: Int, at next: Date, lastError: String) -> OutboxItem {
        var retry = self
        retry.attempts = attempts
        retry.nextAttemptAt = next
        retry.lastError = DeliveryResult.shortened(lastError)
        return retry
    }
}
