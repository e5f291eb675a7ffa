import APNsClient
import APNsCore
import Foundation
import PushStore

extension DeviceDelivery {
    /// What one attempt at a push comes to, for outbox batches and group pages alike.
    enum Verdict: Sendable {
        /// Done: the outcome to record.
        case final(DeliveryResult)
        /// To try again: the push with its attempts, next attempt and last error set.
        case retry(OutboxItem)
    }

    /// The one reading of a device push's answer, pure: ``DeliveryDecision`` says what the answer means; this
    /// turns it into the push's result, with the back-off of the outbox, and, when APNs refused the token
    /// for good, the token to mark invalid (recorded with the batch's or page's outcomes, in one write).
    /// - Parameters:
    ///   - sendStarted: when the batch was sent; a token is marked invalid as of then, so a token the app
    ///     reported again since is not overruled.
    ///   - sentAt: when the answers were in.
    func verdict(_ outcome: APNsDeliveryOutcome, for push: DevicePush, sendStarted: Date, sentAt: Date) -> (Verdict, TokenInvalidation?) {
        let item = push.item
        // Counts requests sent to APNs, the sender's immediate re-sends included.
        let attempts = item.attempts + outcome.attempts
        switch DeliveryDecision.classify(outcome) {
        case .accepted(let apnsID):
            return (
                .final(
                    DeliveryResult(
                        pushID: item.pushID, outcome: .accepted, sentAt: sentAt, apnsID: apnsID, status: 200, attempts: attempts,
                        apnsUniqueID: DeliveryDecision.uniqueID(outcome))), nil
            )
        case .invalidToken(let status, let reason, let apnsID):
            return (
                .final(
                    DeliveryResult(
                        pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason.rawValue,
                        attempts: attempts)),
                TokenInvalidation(token: push.target.token, reason: reason.rawValue, at: sendStarted)
            )
        case .rejected(let status, let reason, let apnsID):
            return (
                .final(
                    DeliveryResult(
                        pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason,
                        attempts: attempts)), nil
            )
        case .retryLater(let lastError, let status):
            return (retryLater(item, attempts: attempts, lastError: lastError, status: status, at: sentAt), nil)
        case .interrupted:
            return (interrupted(item, at: sentAt), nil)
        }
    }

    /// Tries again after the outbox's back-off (the only back-off a push gets:
    /// `WorkerSettings.outboxRetryDelay`); past the expiration, the final `expired` result instead.
    /// `backoffAfter`: the attempts the back-off counts, when nothing was sent (a store failure): the
    /// count of sends stays, the back-off grows as after one more.
    func retryLater(_ item: OutboxItem, attempts: Int, backoffAfter: Int? = nil, lastError: String, status: Int?, at date: Date) -> Verdict {
        let next = date.addingTimeInterval(
            context.settings.outboxRetryDelay(afterAttempts: backoffAfter ?? attempts, random: Double.random(in: 0...1)))
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

extension DeviceDelivery {
    /// Logs and reports (webhook) the tokens a batch or page marked invalid.
    func tokensInvalidated(_ invalidated: InvalidatedTokens) {
        for activity in invalidated.activities {
            context.logger.info(
                "token marked invalid",
                metadata: [
                    "activityId": "\(activity.activityID)", "token": "\(activity.pushToken.shortened)",
                    "reason": "\(activity.tokenState.invalidReason ?? "")",
                ])
        }
        for record in invalidated.pushToStartTokens {
            context.logger.info(
                "push-to-start token marked invalid",
                metadata: [
                    "tokenId": "\(record.id.lowercased)", "token": "\(record.token.shortened)", "reason": "\(record.tokenState.invalidReason ?? "")",
                ])
        }
        events.committed(invalidated.count)
    }

    /// A bounded label for a reason: Apple's known reasons as they are, anything else `other` (a reason from
    /// a proxy, or our own text, would make the label set unbounded).
    static func metricReason(_ reason: String) -> String {
        let known = APNsReason(rawValue: reason)
        if case .other = known { return "other" }
        return known.rawValue
    }
}
