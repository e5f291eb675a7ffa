import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore
import ServiceLifecycle

/// Ends activities that reached the maximum active duration (with their last content-state), marks ended
/// activities dismissed once their dismissal date has passed, and forgets them after their dismissal window.
/// A Service of the application: once the API listens it sweeps every `lifecycleInterval` until graceful
/// shutdown (a sweep under way is finished, never cut off).
final class LifecycleSweeper: Service, Sendable {
    private let store: any PushStore
    private let configuration: ServerConfiguration
    private let clock: any WallClock
    private let logger: Logger
    private let webhook: WebhookService
    private let timestamps: TimestampIssuer
    private let signal: OutboxSignal
    private let listening: ListeningGate

    init(store: any PushStore, configuration: ServerConfiguration, clock: any WallClock, logger: Logger,
         webhook: WebhookService, timestamps: TimestampIssuer, signal: OutboxSignal, listening: ListeningGate) {
        self.signal = signal
        self.listening = listening
        self.timestamps = timestamps
        self.store = store
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.webhook = webhook
    }

    func run() async {
        guard await listening.wait() != nil else { return }
        let interval = Duration.milliseconds(Int64(configuration.lifecycleInterval * 1000))
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            await sweep()
            // Only the wait between sweeps is cut short by shutdown.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Runs one sweep: returns how many activities were ended, dismissed and forgotten.
    @discardableResult
    func sweep() async -> (ended: Int, dismissed: Int, forgotten: Int) {
        let now = clock.now()
        var ended = 0
        do {
            let expired = try await store.activeActivities(olderThan: now.addingTimeInterval(-configuration.maximumActiveDuration))
            for activity in expired where await end(activity, now: now) { ended += 1 }
        } catch {
            logger.error("lifecycle sweep could not list old activities", metadata: ["error": "\(error)"])
        }
        var dismissed = 0
        do {
            dismissed = try await store.dismissEnded(dismissedBy: now)
            if dismissed > 0 { logger.info("ended activities past their dismissal date are dismissed", metadata: ["count": "\(dismissed)"]) }
        } catch {
            logger.error("lifecycle sweep could not mark dismissed activities", metadata: ["error": "\(error)"])
        }
        var forgotten = 0
        do {
            forgotten = try await store.forgetEnded(before: now.addingTimeInterval(-configuration.forgetAfter))
            if forgotten > 0 { logger.info("forgot ended activities", metadata: ["count": "\(forgotten)"]) }
        } catch {
            logger.error("lifecycle sweep could not forget ended activities", metadata: ["error": "\(error)"])
        }
        return (ended, dismissed, forgotten)
    }

    /// Ends one activity: an end push with its last content-state when it has one and a valid token.
    private func end(_ activity: ActivityRecord, now: Date) async -> Bool {
        let dismissal = now.addingTimeInterval(configuration.defaultDismissalDelay)
        do {
            if let state = activity.lastContentState, activity.tokenState.isValid {
                let timestamp = timestamps.next(for: activity.activityId, now: now, stored: activity.lastTimestamp)
                let payload = LiveActivityPayload.end(contentState: state, dismissalDate: dismissal, timestamp: timestamp)
                let item = OutboxItem(
                    target: .activity(id: activity.activityId), kind: .end, payload: payload.encoded(),
                    priority: .conservesPower, importance: .timeSensitive,
                    expiration: now.addingTimeInterval(configuration.defaultExpiration), acceptedAt: now
                )
                _ = try await store.enqueue([item])
                signal.wake(items: 1)
            }
            let change = try await store.markEnded(activityId: activity.activityId, at: now, dismissalDate: dismissal)
            // The app or the backend may have ended it since it was listed: then they reported the end.
            guard change.endedNow else { return false }
            logger.info("ended activity at its maximum duration", metadata: ["activityId": "\(activity.activityId)"])
            webhook.notify(.activityEnded(activity.activityId, userId: activity.userId, cause: .maximumDuration, at: now))
            return true
        } catch {
            logger.error("ending an old activity failed", metadata: ["activityId": "\(activity.activityId)", "error": "\(error)"])
            return false
        }
    }
}
