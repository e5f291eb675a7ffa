import APNsCore
import Foundation
import LiveActivity
import Logging

/// The simulated iPhones behind the local APNs: apps, devices, Live Activities and their tokens. The
/// endpoint hands every push that passed APNs' request checks to `deliver(_:)`, which gives APNs' verdict
/// on the token and then applies the payload as ActivityKit does. Activity lifecycles are computed
/// lazily against the clock whenever the world is read or receives a push.
public actor DeviceWorld {
    let clock: any WallClock
    /// The rules the devices follow.
    public let rules: DeviceRules
    let logger: Logger
    /// Every change, for the event stream.
    public nonisolated let events: EventBus
    let webhookClient = TokenWebhookClient()

    var apps: [AppKey: SimulatedApp] = [:]
    var appOrder: [AppKey] = []
    var devices: [String: SimulatedDevice] = [:]
    var deviceOrder: [String] = []
    var activities = ActivityTable()
    var tokens: [String: TokenRecord] = [:]
    var tokenRates: [String: SlidingWindowCounter] = [:]
    var pushLog: [PushLogEntry] = []
    /// Pushes accepted for tokens no device owns (`acceptUnknownTokens`).
    var unroutedPushes: [PushRecord] = []
    /// Device outcomes by apns-id, waiting for the endpoint's `record(_:)`.
    var pendingOutcomes: [String: DeviceOutcome] = [:]
    var pendingOrder: [String] = []
    var sequence = 0
    /// Broadcast channels by id, and each app's channel ids in creation order (docs/apns-protocol.md §10).
    var channels: [String: SimulatedChannel] = [:]
    var channelOrder: [AppKey: [String]] = [:]

    struct AppKey: Hashable, Sendable {
        var bundleID: String
        var environment: APNsEnvironment
    }

    public init(
        clock: any WallClock = SystemWallClock(), rules: DeviceRules = DeviceRules(),
        logger: Logger = Logger(label: "livepush.simulator.devices")
    ) {
        self.clock = clock
        self.rules = rules
        self.logger = logger
        self.events = EventBus(bufferSize: rules.subscriberBufferSize)
    }

    // MARK: - Pushes

    /// APNs' verdict on the push's token, and, when accepted, the device applying the payload.
    public func deliver(_ push: ReceivedPush) -> PushVerdict {
        let now = clock.now()
        let token = push.token.lowercased()
        guard let record = tokens[token] else {
            if rules.acceptUnknownTokens {
                let entry = makeRecord(
                    push, status: 200, reason: nil, outcome: DeviceOutcome(.noDevice, "no simulated device owns this token"), deviceID: nil,
                    activityID: nil)
                unroutedPushes.append(entry)
                if unroutedPushes.count > rules.historyLimit { unroutedPushes.removeFirst() }
                remember(push.apnsID, entry.outcome)
                publish(.pushIgnored, data: SimulatorJSON.tree(entry), at: now)
                return .accepted
            }
            logger.debug("unknown token", metadata: ["token": "\(DeviceToken.shorten(token))"])
            return .rejected(.badDeviceToken, invalidSince: nil)
        }
        if record.environment != push.environment {
            return reject(
                push, record, .badDeviceToken, invalidSince: nil,
                detail: "token belongs to \(record.environment.rawValue), push was sent to \(push.environment.rawValue)")
        }
        let expectedTopic = APNsPushType.liveactivity.topic(forBundleID: record.bundleID)
        if push.topic != expectedTopic {
            return reject(
                push, record, .deviceTokenNotForTopic, invalidSince: nil,
                detail: "token belongs to topic \(expectedTopic), push was for \(push.topic)")
        }
        if let expiredSince = record.expiredSince, expiredSince <= now {
            return reject(push, record, .expiredToken, invalidSince: expiredSince, detail: "token expired")
        }
        if let invalidSince = record.invalidSince, invalidSince <= now {
            return reject(push, record, .unregistered, invalidSince: invalidSince, detail: "token was rotated out")
        }
        if case .activity(let id) = record.owner {
            settle(activityID: id, at: now)
            if let activity = activities[id], activity.lifecycle(at: now) == .dismissed {
                return reject(
                    push, record, .unregistered, invalidSince: activity.dismissalDate ?? now,
                    detail: "activity was dismissed")
            }
        }
        if let limit = rules.tooManyRequests {
            var counter = tokenRates[token] ?? SlidingWindowCounter()
            if counter.count(within: limit.window, at: now) >= limit.maximumPushes {
                tokenRates[token] = counter
                return reject(
                    push, record, .tooManyRequests, invalidSince: nil,
                    detail: "more than \(limit.maximumPushes) pushes within \(limit.window) s")
            }
            counter.record(now)
            tokenRates[token] = counter
        }
        let outcome: DeviceOutcome
        switch record.owner {
        case .pushToStart(let deviceID, let bundleID):
            outcome = applyStart(push, deviceID: deviceID, bundleID: bundleID, at: now)
        case .activity(let id):
            outcome = applyToActivity(push, activityID: id, at: now)
        }
        remember(push.apnsID, outcome)
        logger.debug(
            "push applied",
            metadata: [
                "token": "\(DeviceToken.shorten(token))", "apns-id": "\(push.apnsID)", "outcome": "\(outcome.kind.rawValue)",
            ])
        return .accepted
    }

    /// Records one request the endpoint answered, for the push log and the event stream.
    public func record(_ exchange: PushExchange) {
        let outcome = pendingOutcomes.removeValue(forKey: exchange.apnsID)
        if outcome != nil { pendingOrder.removeAll { $0 == exchange.apnsID } }
        let entry = PushLogEntry(
            method: exchange.method, path: exchange.path, token: exchange.token, headers: exchange.headers,
            payload: ActivityPushContent.jsonForRecord(exchange.payload), status: exchange.status,
            apnsID: exchange.apnsID, apnsUniqueID: exchange.apnsUniqueID, reason: exchange.reason?.rawValue,
            receivedAt: exchange.receivedAt, latencySeconds: exchange.latencySeconds, outcome: outcome
        )
        pushLog.append(entry)
        if pushLog.count > rules.pushLogLimit { pushLog.removeFirst(pushLog.count - rules.pushLogLimit) }
        publish(.pushExchange, data: SimulatorJSON.tree(entry), at: exchange.receivedAt)
    }

    /// The newest `limit` entries of the push log, oldest first.
    public func pushes(limit: Int = 100) -> [PushLogEntry] {
        Array(pushLog.suffix(max(0, limit)))
    }

    // MARK: - Internals shared by the extensions

    private func reject(
        _ push: ReceivedPush, _ record: TokenRecord, _ reason: APNsReason, invalidSince: Date?, detail: String
    ) -> PushVerdict {
        let outcome = DeviceOutcome(.notDelivered, "\(reason.rawValue): \(detail)")
        let entry: PushRecord
        switch record.owner {
        case .activity(let id):
            entry = makeRecord(
                push, status: reason.status, reason: reason, outcome: outcome,
                deviceID: activities[id]?.deviceID, activityID: id)
            activities[id]?.appendHistory(HistoryEntry(entry), limit: rules.historyLimit)
        case .pushToStart(let deviceID, let bundleID):
            entry = makeRecord(
                push, status: reason.status, reason: reason, outcome: outcome,
                deviceID: deviceID, activityID: nil)
            appendStartHistory(entry, deviceID: deviceID, bundleID: bundleID)
        }
        remember(push.apnsID, outcome)
        logger.debug(
            "push rejected",
            metadata: [
                "token": "\(DeviceToken.shorten(push.token))", "reason": "\(reason.rawValue)", "detail": "\(detail)",
            ])
        return .rejected(reason, invalidSince: invalidSince)
    }

    func makeRecord(
        _ push: ReceivedPush, status: Int, reason: APNsReason?, outcome: DeviceOutcome, deviceID: String?,
        activityID: String?
    ) -> PushRecord {
        PushRecord(
            apnsID: push.apnsID, receivedAt: push.receivedAt, token: push.token.lowercased(),
            priority: push.priority.rawValue, headers: push.headers,
            payload: ActivityPushContent.jsonForRecord(push.payload), status: status, reason: reason?.rawValue,
            outcome: outcome, deviceID: deviceID, activityID: activityID
        )
    }

    func appendStartHistory(_ entry: PushRecord, deviceID: String, bundleID: String) {
        guard let index = devices[deviceID]?.appIndex(bundleID) else { return }
        devices[deviceID]?.apps[index].history.append(entry)
        if let count = devices[deviceID]?.apps[index].history.count, count > rules.historyLimit {
            devices[deviceID]?.apps[index].history.removeFirst(count - rules.historyLimit)
        }
    }

    private func remember(_ apnsID: String, _ outcome: DeviceOutcome) {
        if pendingOutcomes.updateValue(outcome, forKey: apnsID) == nil { pendingOrder.append(apnsID) }
        if pendingOrder.count > rules.pushLogLimit {
            let dropped = pendingOrder.removeFirst()
            pendingOutcomes.removeValue(forKey: dropped)
        }
    }

    /// Publishes an event. Its data is built only when someone listens: encoding every push for an
    /// empty event stream was most of the simulator's work under load.
    func publish(_ kind: SimulatorEvent.Kind, data: @autoclosure () -> JSONValue, at date: Date? = nil) {
        sequence += 1
        guard events.subscriberCount > 0 else { return }
        events.publish(SimulatorEvent(sequence: sequence, kind: kind, at: date ?? clock.now(), data: data()))
    }

    /// A new random token of `byteCount` bytes, never one in use.
    func newToken(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let token = DeviceToken(bytes: (0..<max(1, byteCount)).map { _ in UInt8.random(in: 0...255, using: &generator) }).hex
            if tokens[token] == nil { return token }
        }
    }
}
