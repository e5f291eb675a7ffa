import Foundation
import LiveActivity
import LivePushAPIClient
import Logging

/// The app's one reporter: takes every token and state event of its Live Activities, writes it to the
/// journal before returning, and gets it to `livepush serve` through the generated client while
/// ``run()`` runs. What the server has not acknowledged stays in the journal, so a relaunch sends it;
/// of an activity's tokens only the newest is sent, and changes go out in the order they arrived.
///
/// ```swift
/// let reporter = try LivePushReporter(configuration)
/// // for the app's lifetime, e.g. SwiftUI's .task { … }:
/// await reporter.run()
/// ```
public actor LivePushReporter: LiveActivityEventSink {
    let configuration: LivePushConfiguration
    let uploader: APIUploader
    let file: JournalFile
    var logger: Logger
    var state: JournalState
    /// The user token in use, and whether the server refused it (the closure is asked for a new one).
    var userToken: (token: String, refused: Bool)?
    /// The server refused the installation's token: renew it (or open a new installation) first.
    var installationRefused = false
    private var failures = 0
    private var running = false
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// The callers of ``settled()`` waiting for the journal to owe nothing.
    private var settledWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Opens (or creates) the app's journal in `configuration.journalDirectory`.
    public init(_ configuration: LivePushConfiguration) throws(LivePushKitError) {
        try configuration.validate()
        self.configuration = configuration
        logger = configuration.logger
        file = JournalFile(directory: configuration.journalDirectory)
        var state = try file.read() ?? JournalState(deviceID: configuration.deviceID ?? UUID().lowercased)
        if let deviceID = configuration.deviceID { state.deviceID = deviceID }
        state.dropUnregisteredEnds()
        self.state = state
        uploader = APIUploader(
            serverURL: configuration.serverURL, transport: configuration.transport, bundleID: configuration.bundleID,
            environment: configuration.environment == .production ? .production : .sandbox)
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        try file.write(state)
    }

    /// The device id push-to-start tokens are stored under.
    public var deviceID: String { state.deviceID }

    /// The installation this app opened (installation credential), once it has one: give it to your backend,
    /// which addresses it as a user id (`POST /v1/users/{installationId}/start`).
    public var installationID: String? { state.installation?.installationID }

    /// How many requests are still owed to the server.
    public var pendingCount: Int { state.pendingCount }

    /// Returns once the reporter owes the server nothing (``pendingCount`` is 0): everything it was given
    /// so far was stored, or refused for good (``ReportStatus/refused``, not sent again). At once when
    /// nothing is owed; an event given while it waits is waited for too. Only ``run()`` sends, so without
    /// it (or while the server stays unreachable) this waits until the calling task is cancelled, and then
    /// returns with the work still owed.
    ///
    /// ```swift
    /// await reporter.settled()   // e.g. before the app's tests read what the server holds
    /// ```
    public func settled() async {
        guard state.pendingCount > 0 else { return }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if state.pendingCount == 0 || Task.isCancelled {
                    continuation.resume()
                } else {
                    settledWaiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
    }

    private func stopWaiting(_ id: UUID) {
        settledWaiters.removeValue(forKey: id)?.resume()
    }

    // MARK: Events

    public func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String]) {
        activityToken(token, activityID: activityID, attributesType: attributesType, groups: groups, liveActivityKey: nil)
    }

    public func activityToken(_ token: PushToken, activityID: String, attributesType: String, groups: [String], liveActivityKey: String?) {
        guard
            state.record(token: token, activityID: activityID, attributesType: attributesType, groups: groups, liveActivityKey: liveActivityKey)
        else { return }
        logger.debug("activity token", metadata: ["activityId": "\(activityID)", "token": "\(token.shortened)"])
        commit()
    }

    public func pushToStartToken(_ token: PushToken, attributesType: String, source: PushToStartSource) {
        guard state.record(pushToStart: token, attributesType: attributesType, source: source) else { return }
        logger.debug(
            "push-to-start token", metadata: ["attributesType": "\(attributesType)", "token": "\(token.shortened)", "source": "\(source.rawValue)"])
        commit()
    }

    public func activityEnded(activityID: String, _ end: ActivityEnd) {
        guard state.record(end: end, activityID: activityID) else { return }
        logger.debug("activity \(end.isDismissed ? "dismissed" : "ended")", metadata: ["activityId": "\(activityID)"])
        commit()
    }

    public func contentStateShape(_ shape: ContentStateShape, attributesType: String) {
        guard state.contentStateShapes?[attributesType] != shape.json else { return }
        state.contentStateShapes = (state.contentStateShapes ?? [:]).merging([attributesType: shape.json]) { $1 }
        logger.debug("content-state shape", metadata: ["attributesType": "\(attributesType)"])
        commit()
    }

    public func authorization(_ authorization: ActivityAuthorization) {
        guard state.record(authorization: authorization) else { return }
        logger.info(
            "Live Activities authorization",
            metadata: ["activitiesEnabled": "\(authorization.activitiesEnabled)", "frequentPushesEnabled": "\(authorization.frequentPushesEnabled)"])
        commit()
    }

    /// Writes the journal, then wakes ``run()``.
    func commit() {
        do {
            try file.write(state)
        } catch {
            logger.error("journal not written; the change waits in memory until the next write", metadata: ["problem": "\(error)"])
        }
        if !settledWaiters.isEmpty, state.pendingCount == 0 {
            let waiters = settledWaiters.values
            settledWaiters = [:]
            for waiter in waiters { waiter.resume() }
        }
        wake.yield()
    }

    // MARK: Sending

    /// Sends what the journal owes the server, oldest change first, until the calling task is cancelled;
    /// waits for new events when there is nothing to send. Run it once, for the app's lifetime.
    public func run() async {
        guard !running else {
            logger.error("LivePushReporter.run() is already running; this call returns at once")
            return
        }
        running = true
        defer { running = false }
        var events = wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            guard let upload = state.nextUpload else {
                guard await events.next(isolation: self) != nil else { return }
                continue
            }
            await attempt(upload)
        }
    }

    private func attempt(_ upload: Upload) async {
        let bearer: String
        do {
            bearer = try await credential()
        } catch {
            await retryLater(upload, reason: "\(error)", retryAfter: nil)
            return
        }
        let outcome = await uploader.send(upload, deviceID: state.deviceID, bearer: bearer, shapes: state.contentStateShapes ?? [:])
        switch outcome {
        case .stored:
            failures = 0
            state.acknowledge(upload)
            logger.debug("reported", metadata: ["route": "\(upload.route)"])
            commit()
        case .retry(let reason, let retryAfter):
            await retryLater(upload, reason: reason, retryAfter: retryAfter)
        case .unauthorized(let message):
            credentialRefused()
            // A fresh credential is tried at once; one refused again waits like any failure.
            if failures > 0 { await retryLater(upload, reason: "401 \(message)", retryAfter: nil) } else { failures = 1 }
        case .unknownToServer(let message):
            failures = 0
            logger.notice("the server does not know it", metadata: ["route": "\(upload.route)", "message": "\(message)"])
            state.forgetServerCopy(of: upload)
            commit()
        case .refused(let status, let field, let rule, let message):
            failures = 0
            logger.error(
                "the server refused a report; not sent again",
                metadata: [
                    "route": "\(upload.route)", "status": "\(status)", "field": "\(field ?? "-")", "rule": "\(rule)", "message": "\(message)",
                ])
            state.refuse(upload)
            commit()
        }
    }

    /// Waits out the backoff (or the server's Retry-After) before the next attempt.
    private func retryLater(_ upload: Upload, reason: String, retryAfter: Duration?) async {
        failures += 1
        let delay = configuration.retry.delay(afterFailures: failures, retryAfter: retryAfter, random: Double.random(in: 0..<1))
        logger.warning(
            "report failed; trying again", metadata: ["route": "\(upload.route)", "reason": "\(reason)", "in": "\(delay)", "failures": "\(failures)"])
        try? await Task.sleep(for: delay)
    }
}
