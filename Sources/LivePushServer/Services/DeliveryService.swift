import APNsCore
import Foundation
import Logging
import PushStore
import ServiceLifecycle
import Synchronization

/// The outbox workers, as a Service of the application: once the API listens, `workerCount` workers each
/// claim a batch of due pushes, send them concurrently, and record one final outcome per push (or
/// reschedule it with back-off until its expiration). On graceful shutdown (or cancellation) they stop
/// claiming, finish what is in flight and give back their claims before `run` returns.
final class DeliveryService: Service, Sendable {
    let store: any PushStore
    let sender: any PushSending
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let clock: any WallClock
    let logger: Logger
    let webhook: any DomainEvents
    private let signal: OutboxSignal
    private let listening: ListeningGate
    private let stopping = Mutex(false)

    init(
        store: any PushStore, sender: any PushSending, configuration: ServerConfiguration, metrics: ServerMetrics,
        clock: any WallClock, logger: Logger, webhook: any DomainEvents, signal: OutboxSignal, listening: ListeningGate
    ) {
        self.signal = signal
        self.listening = listening
        self.store = store
        self.sender = sender
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        self.webhook = webhook
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Runs the workers until graceful shutdown or cancellation; returns once each has finished its
    /// in-flight pushes and released its claims.
    func run() async {
        guard await listening.wait() != nil else { return }
        let workers = configuration.workerCount
        let instance = configuration.instanceID
        // A service that returns early stops the application: with no workers, wait for shutdown.
        guard workers > 0 else { return await waitForShutdown() }
        await untilShutdown(stop: { self.stop() }) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<workers {
                    let worker = LeaseWorker(
                        owner: "\(instance)-w\(index)", queues: [outboxQueue, pageQueue], signal: signal, pollInterval: pollInterval,
                        lease: configuration.claimLease, clock: clock, metrics: metrics, logger: logger)
                    group.addTask { await worker.run { self.isStopping } }
                }
            }
        }
    }

    /// Makes the workers stop claiming (each finishes its batch, then releases its claims).
    private func stop() {
        stopping.withLock { $0 = true }
        signal.wakeAll()
    }

    /// The outbox: single sends, retries and broadcasts, first in each round.
    private var outboxQueue: LeasedQueue {
        LeasedQueue(name: "pushes") { owner throws(PushStoreError) in
            try await self.claimBatch(owner: owner)
        } release: { [store] owner throws(PushStoreError) in
            try await store.release(owner: owner)
        }
    }

    /// The pages of group sends, after the outbox.
    private var pageQueue: LeasedQueue {
        LeasedQueue(name: "group pages") { owner throws(PushStoreError) in
            try await self.claimPage(owner: owner)
        } release: { [store] owner throws(PushStoreError) in
            try await store.releasePages(owner: owner)
        }
    }

    /// Claims a batch of due outbox pushes: sent concurrently, their final outcomes recorded together.
    private func claimBatch(owner: String) async throws(PushStoreError) -> LeasedWork? {
        let items = try await store.claim(owner: owner, limit: configuration.batchSize, now: clock.now(), lease: configuration.claimLease)
        guard !items.isEmpty else { return nil }
        let pushIDs = items.map(\.pushID)
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "pushes": "\(items.count)"]) { until throws(PushStoreError) in
            try await store.renewClaims(owner: owner, pushIDs: pushIDs, until: until) > 0
        } run: {
            let activities = await self.targetActivities(of: items)
            let results = await withTaskGroup(of: DeliveryResult?.self) { group in
                for item in items {
                    group.addTask { await self.process(item, owner: owner, activities: activities) }
                }
                var out: [DeliveryResult] = []
                for await result in group { if let result { out.append(result) } }
                return out
            }
            await self.finish(results, owner: owner)
        }
    }

    /// Claims the next page of a group send.
    private func claimPage(owner: String) async throws(PushStoreError) -> LeasedWork? {
        guard let page = try await store.claimPage(owner: owner, pageSize: configuration.batchSize, now: clock.now(), lease: configuration.claimLease)
        else { return nil }
        let store = self.store
        return LeasedWork(subject: ["owner": "\(owner)", "sendId": "\(page.send.sendID)", "first": "\(page.firstID)"]) {
            until throws(PushStoreError) in
            try await store.renewPage(page, owner: owner, until: until)
        } send: {
            await self.sendPage(page, owner: owner)
        }
    }

    private var pollInterval: Duration { .milliseconds(Int(configuration.pollInterval * 1000)) }

    /// The activities a claimed batch targets, read in one store call; nil when that read failed (each
    /// push then reads its own target, and a store failure reschedules it).
    private func targetActivities(of items: [OutboxItem]) async -> [String: ActivityRecord]? {
        var ids = [String]()
        var seen = Set<String>()
        for item in items {
            if let id = item.target.activityID, seen.insert(id).inserted { ids.append(id) }
        }
        guard !ids.isEmpty else { return [:] }
        do {
            var byID = [String: ActivityRecord]()
            for activity in try await store.activities(ids: ids) { byID[activity.activityID] = activity }
            return byID
        } catch {
            logger.warning("reading a batch's activities failed; reading them one by one", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Sends one claimed push; returns its final result, or nil when it was rescheduled. `activities`:
    /// the batch's activities read at claim time (nil: read the target now).
    func process(_ item: OutboxItem, owner: String, activities: [String: ActivityRecord]?) async -> DeliveryResult? {
        let now = clock.now()
        if let expiration = item.expiration, expiration <= now {
            return DeliveryResult(
                pushID: item.pushID, outcome: .expired,
                reason: item.lastError.map { "expired; last error: \($0)" } ?? "expired before it could be sent", attempts: item.attempts)
        }
        if case .channel(let channelID) = item.target {
            return await processBroadcast(item, channelID: channelID, owner: owner)
        }
        let target: ResolvedTarget
        switch await resolve(item, activities: activities) {
        case .success(let resolved): target = resolved
        case .failure(let failure):
            if failure.retryable {
                // Nothing was sent: the count of sends stays, the back-off grows as after one more.
                return await retryLater(
                    item, owner: owner, attempts: item.attempts, backoffAfter: item.attempts + 1,
                    lastError: failure.reason, status: nil, sentAt: now)
            }
            return DeliveryResult(pushID: item.pushID, outcome: .failed, reason: failure.reason, attempts: item.attempts)
        }
        let request: APNsRequest
        do {
            let headers = try APNsRequestHeaders.liveActivity(
                bundleID: target.bundleID, priority: item.priority,
                expiration: item.expiration.map(APNsExpiration.at) ?? .serverDefault,
                collapseID: item.collapseKey, apnsID: item.pushID
            )
            request = APNsRequest(token: target.token, headers: headers, body: item.payload)
        } catch {
            return DeliveryResult(pushID: item.pushID, outcome: .rejected, reason: error.description, attempts: item.attempts)
        }
        let sendStarted = clock.now()
        // One outbox attempt: the sender never backs off (its only re-sends are immediate, on a new
        // connection); whether and when to try again is decided here, by reason, in `retryLater`.
        let outcome = await sender.deliver(request)
        let sentAt = clock.now()
        // Counts requests sent to APNs, the sender's immediate re-sends included.
        let attempts = item.attempts + outcome.attempts
        switch DeliveryDecision.classify(outcome) {
        case .accepted(let apnsID):
            return DeliveryResult(
                pushID: item.pushID, outcome: .accepted, sentAt: sentAt, apnsID: apnsID, status: 200, attempts: attempts,
                apnsUniqueID: DeliveryDecision.uniqueID(outcome))
        case .invalidToken(let status, let reason, let apnsID):
            // As of the send: if the app reported this token again since, APNs' answer does not overrule it.
            await invalidate(target, item: item, reason: reason, at: sendStarted)
            return DeliveryResult(
                pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason.rawValue, attempts: attempts)
        case .rejected(let status, let reason, let apnsID):
            return DeliveryResult(
                pushID: item.pushID, outcome: .rejected, sentAt: sentAt, apnsID: apnsID, status: status, reason: reason, attempts: attempts)
        case .retryLater(let lastError, let status):
            return await retryLater(item, owner: owner, attempts: attempts, lastError: lastError, status: status, sentAt: sentAt)
        case .interrupted:
            await reschedule(item, owner: owner, at: sentAt, attempts: item.attempts, lastError: "interrupted by shutdown")
            return nil
        }
    }

    /// Reschedules with back-off (the only back-off a push gets: `ServerConfiguration.outboxRetryDelay`);
    /// past the expiration, returns the final `expired` result instead.
    func retryLater(
        _ item: OutboxItem, owner: String, attempts: Int, backoffAfter: Int? = nil, lastError: String, status: Int?, sentAt: Date
    ) async -> DeliveryResult? {
        let delay = configuration.outboxRetryDelay(afterAttempts: backoffAfter ?? attempts, random: Double.random(in: 0...1))
        let next = sentAt.addingTimeInterval(delay)
        if let expiration = item.expiration, next >= expiration {
            return DeliveryResult(
                pushID: item.pushID, outcome: .expired, sentAt: sentAt, status: status,
                reason: "expiration passed while retrying; last error: \(lastError)", attempts: attempts)
        }
        logger.debug(
            "push will be retried", metadata: ["pushId": "\(item.pushID)", "attempts": "\(attempts)", "error": "\(lastError)", "delay": "\(delay)"])
        await reschedule(item, owner: owner, at: next, attempts: attempts, lastError: lastError)
        return nil
    }

    func reschedule(_ item: OutboxItem, owner: String, at next: Date, attempts: Int, lastError: String) async {
        do {
            try await store.reschedule(
                pushID: item.pushID, owner: owner, nextAttemptAt: next, attempts: attempts,
                lastError: DeliveryResult.shortened(lastError))
        } catch {
            logger.error(
                "rescheduling a push failed; its claim will expire and it will be retried",
                metadata: ["pushId": "\(item.pushID)", "error": "\(error)"])
        }
    }

    /// Records the final outcomes of a batch in one transaction, then counts and logs them. When the
    /// store fails, the claims expire and the pushes are sent again (harmless: their timestamps are fixed).
    private func finish(_ results: [DeliveryResult], owner: String) async {
        guard !results.isEmpty else { return }
        let now = clock.now()
        let results = results.map { result in
            var shortened = result
            shortened.reason = result.reason.map { DeliveryResult.shortened($0) }
            return shortened
        }
        let report: CompletionReport
        do {
            report = try await store.complete(owner: owner, results: results, at: now)
        } catch .invalidInput {
            // One outcome the store refuses must not hold back the others: record them one by one.
            logger.error(
                "a batch of push outcomes was refused; recording them one by one", metadata: ["owner": "\(owner)", "count": "\(results.count)"])
            var records: [DeliveryRecord] = []
            var notHeld: [UUID] = []
            for result in results {
                do {
                    let single = try await store.complete(owner: owner, results: [result], at: now)
                    records += single.records
                    notHeld += single.notHeld
                } catch {
                    logger.error("recording a push outcome failed", metadata: ["pushId": "\(result.pushID)", "error": "\(error)"])
                }
            }
            report = CompletionReport(records: records, notHeld: notHeld)
        } catch {
            logger.error("recording push outcomes failed", metadata: ["owner": "\(owner)", "count": "\(results.count)", "error": "\(error)"])
            return
        }
        for pushID in report.notHeld {
            logger.warning("a push's claim was taken over before its outcome was recorded", metadata: ["pushId": "\(pushID)"])
        }
        for record in report.records {
            let elapsed = max(0, now.timeIntervalSince(record.acceptedAt))
            metrics.recordOutcome(
                record.outcome, reason: record.reason.map(Self.metricReason), priority: record.priority,
                latency: .milliseconds(Int64(elapsed * 1000)))
            let level: Logger.Level = record.outcome == .accepted ? .debug : .info
            logger.log(
                level: level, "push finished",
                metadata: [
                    "pushId": "\(record.pushID)", "target": "\(record.target)", "kind": "\(record.kind.rawValue)",
                    "outcome": "\(record.outcome.rawValue)", "reason": "\(record.reason ?? "")", "attempts": "\(record.attempts)",
                ])
        }
    }

    /// A bounded label for a reason: Apple's known reasons as they are, anything else `other` (a reason from
    /// a proxy, or our own text, would make the label set unbounded).
    static func metricReason(_ reason: String) -> String {
        let known = APNsReason(rawValue: reason)
        if case .other = known { return "other" }
        return known.rawValue
    }

    func invalidate(_ target: ResolvedTarget, item: OutboxItem, reason: APNsReason, at date: Date) async {
        do {
            switch item.target {
            case .activity:
                // The token.invalid event is stored in the same transaction as the invalidation.
                if let activity = try await store.markTokenInvalid(
                    token: target.token, reason: reason.rawValue, at: date,
                    journal: webhook.tokenJournal)
                {
                    logger.info(
                        "token marked invalid",
                        metadata: ["activityId": "\(activity.activityID)", "token": "\(target.token.shortened)", "reason": "\(reason.rawValue)"])
                    webhook.committed(1)
                }
            case .channel:
                break
            case .pushToStartToken:
                let records = try await store.markPushToStartTokenInvalid(
                    token: target.token, reason: reason.rawValue, at: date,
                    journal: webhook.tokenJournal)
                for record in records {
                    logger.info(
                        "push-to-start token marked invalid",
                        metadata: ["tokenId": "\(record.id)", "token": "\(target.token.shortened)", "reason": "\(reason.rawValue)"])
                }
                webhook.committed(records.count)
            }
        } catch {
            logger.error("marking a token invalid failed", metadata: ["token": "\(target.token.shortened)", "error": "\(error)"])
        }
    }

    struct ResolvedTarget: Sendable {
        var token: DeviceToken
        var bundleID: String
    }

    struct TargetFailure: Error {
        var reason: String
        /// A store failure, not a fact about the target: try again later.
        var retryable = false
    }

    /// The current token and bundle id of the push's target, read at send time (so a rotated token is used):
    /// from `activities` when the batch's were read together, else from the store.
    private func resolve(_ item: OutboxItem, activities: [String: ActivityRecord]?) async -> Result<ResolvedTarget, TargetFailure> {
        do {
            switch item.target {
            case .activity(let id):
                let stored = if let activities { activities[id] } else { try await store.activity(id: id) }
                guard let activity = stored else {
                    return .failure(TargetFailure(reason: "activity is no longer registered"))
                }
                if let refusal = Eligibility.refusalToSend(activity) {
                    return .failure(TargetFailure(reason: refusal))
                }
                return .success(ResolvedTarget(token: activity.pushToken, bundleID: activity.bundleID))
            case .pushToStartToken(let id):
                guard let record = try await store.pushToStartToken(id: id) else {
                    return .failure(TargetFailure(reason: "push-to-start token is no longer stored"))
                }
                if case .invalid(let reason, _) = record.tokenState {
                    return .failure(TargetFailure(reason: "push-to-start token invalid (\(reason))"))
                }
                return .success(ResolvedTarget(token: record.token, bundleID: record.bundleID))
            case .channel:
                return .failure(TargetFailure(reason: "a channel push is a broadcast, not a device push"))
            }
        } catch {
            return .failure(TargetFailure(reason: "store error while resolving the target: \(error)", retryable: true))
        }
    }
}
