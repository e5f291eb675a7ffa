import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore
import ServiceLifecycle

/// Starts the renewals that are due (``RenewalService``), ends activities that reached the maximum active
/// duration (with their last content-state), marks ended
/// activities dismissed once their dismissal date has passed, and forgets them after their dismissal window.
/// A Service of the application: once the API listens it sweeps every `lifecycleInterval` of its clock
/// until graceful shutdown (a sweep under way is finished, never cut off). A clock that runs faster than
/// real time (``ScaledWallClock``, a test's or the demo's) is followed: at rate 600 it sweeps 600 times as often.
struct LifecycleWorker: BackgroundWorker, Sendable {
    let store: any ActivityStore & IdempotencyStore
    let pushes: PushService
    let renewals: RenewalService
    let context: WorkerContext

    func run() async {
        guard await context.untilListening() else { return }
        var next = context.clock.now()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let now = context.clock.now()
            if now >= next {
                await sweep()
                // From the time this sweep read: a clock moved forward while it ran is swept again at once.
                next = now.addingTimeInterval(context.settings.lifecycle.interval)
            }
            // Only the wait between sweeps is cut short by shutdown.
            let interval = pause()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// The real time to wait before looking at the clock again: `lifecycleInterval` on the system's
    /// clock; on a scaled clock (which may also be moved forward at once) the interval at its rate, and
    /// at most 50 ms, so that a sweep follows a jump of the clock at once.
    private func pause() -> Duration {
        var seconds = context.settings.lifecycle.interval
        if let scaled = context.clock as? ScaledWallClock { seconds = min(seconds / scaled.reading().rate.value, 0.05) }
        return .milliseconds(Int64(max(seconds, 0.01) * 1000))
    }

    /// Runs one sweep: returns how many activities were ended, dismissed and forgotten.
    @discardableResult
    func sweep() async -> (ended: Int, dismissed: Int, forgotten: Int) {
        await renewals.sweep()
        let now = context.clock.now()
        var ended = 0
        do {
            let expired = try await store.activeActivities(olderThan: now.addingTimeInterval(-context.settings.lifecycle.maximumActiveDuration))
            for activity in expired where await end(activity, now: now) { ended += 1 }
        } catch {
            context.logger.error("lifecycle sweep could not list old activities", metadata: ["error": "\(error)"])
        }
        var dismissed = 0
        do {
            dismissed = try await store.dismissEnded(dismissedBy: now)
            if dismissed > 0 { context.logger.info("ended activities past their dismissal date are dismissed", metadata: ["count": "\(dismissed)"]) }
        } catch {
            context.logger.error("lifecycle sweep could not mark dismissed activities", metadata: ["error": "\(error)"])
        }
        var forgotten = 0
        do {
            forgotten = try await store.forgetEnded(before: now.addingTimeInterval(-context.settings.lifecycle.forgetAfter))
            if forgotten > 0 { context.logger.info("forgot ended activities", metadata: ["count": "\(forgotten)"]) }
        } catch {
            context.logger.error("lifecycle sweep could not forget ended activities", metadata: ["error": "\(error)"])
        }
        do {
            _ = try await store.forgetIdempotencyKeys(before: now.addingTimeInterval(-IdempotencyService.keepFor))
        } catch {
            context.logger.error("lifecycle sweep could not forget old idempotency keys", metadata: ["error": "\(error)"])
        }
        return (ended, dismissed, forgotten)
    }

    /// Ends one over-age activity through the push service (the only way into the outbox).
    private func end(_ activity: ActivityRecord, now: Date) async -> Bool {
        await renewals.reachedLimit(activity)
        do {
            guard try await pushes.endAtMaximumDuration(activity) else { return false }
            context.logger.info("ended activity at its maximum duration", metadata: ["activityId": "\(activity.activityID)"])
            return true
        } catch {
            context.logger.error("ending an old activity failed", metadata: ["activityId": "\(activity.activityID)", "error": "\(error)"])
            return false
        }
    }
}
