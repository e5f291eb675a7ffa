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
    private let store: any ActivityStore & IdempotencyStore
    private let configuration: ServerConfiguration
    private let clock: any WallClock
    private let logger: Logger
    private let pushes: PushService
    private let listening: ListeningGate

    init(
        store: any ActivityStore & IdempotencyStore, configuration: ServerConfiguration, clock: any WallClock, logger: Logger,
        pushes: PushService, listening: ListeningGate
    ) {
        self.pushes = pushes
        self.listening = listening
        self.store = store
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
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
        do {
            _ = try await store.forgetIdempotencyKeys(before: now.addingTimeInterval(-IdempotencyService.keepFor))
        } catch {
            logger.error("lifecycle sweep could not forget old idempotency keys", metadata: ["error": "\(error)"])
        }
        return (ended, dismissed, forgotten)
    }

    /// Ends one over-age activity through the push service (the only way into the outbox).
    private func end(_ activity: ActivityRecord, now: Date) async -> Bool {
        do {
            guard try await pushes.endAtMaximumDuration(activity) else { return false }
            logger.info("ended activity at its maximum duration", metadata: ["activityId": "\(activity.activityID)"])
            return true
        } catch {
            logger.error("ending an old activity failed", metadata: ["activityId": "\(activity.activityID)", "error": "\(error)"])
            return false
        }
    }
}
