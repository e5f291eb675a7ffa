import APNsCore
import Foundation
import LiveActivity

extension DeviceWorld {
    /// A push to an activity's update token, applied as ActivityKit applies it. The checks, in order:
    /// readable JSON with `aps`; the activity not ended; event `update` or `end`; the hourly priority-10
    /// budget (over it: throttled, recorded and dropped, never applied later); `aps.timestamp` present and
    /// not older than the current one (equal is applied unless `ignoreEqualTimestamps`); the content state
    /// decoding against the schema. An applied push replaces the content state and the stale date (absent:
    /// no stale date, as a new `ActivityContent` has none) and keeps the relevance score when it has none.
    func applyToActivity(_ push: ReceivedPush, activityID: String, at now: Date) -> DeviceOutcome {
        let template = makeRecord(push, status: 200, reason: nil, outcome: DeviceOutcome(.applied), deviceID: nil, activityID: activityID)
        var cache = ContentStateCheckCache()
        return applyUpdate(ActivityPushContent.read(push.payload), record: template, activityID: activityID, at: now, cache: &cache)
    }

    /// Applies a read payload to one activity and records it in its history. `template` is the history
    /// entry (its outcome, device and activity are filled in here); `cache` carries the content-state
    /// decoding verdict and the history entries across the subscribers of one broadcast.
    func applyUpdate(
        _ read: Result<ActivityPushContent, DeviceReadError>, record template: PushRecord, activityID: String,
        at now: Date, cache: inout ContentStateCheckCache
    ) -> DeviceOutcome {
        guard var activity = activities[activityID] else { return DeviceOutcome(.dropped, "activity no longer exists") }
        let outcome: DeviceOutcome
        switch read {
        case .success(let content):
            outcome = decideUpdate(
                content, priority: APNsPriority(rawValue: template.priority) ?? .immediate,
                apnsID: template.apnsID, activity: &activity, at: now, cache: &cache)
        case .failure(let error):
            outcome = DeviceOutcome(.decodeFailure, error.message)
        }
        var entry = template
        entry.outcome = outcome
        entry.deviceID = activity.deviceID
        entry.activityID = activityID
        activity.appendHistory(cache.historyEntry(request: template.request, outcome: outcome), limit: rules.historyLimit)
        activities[activityID] = activity
        switch outcome.kind {
        case .applied:
            publish(.activityUpdated, data: SimulatorJSON.tree(entry), at: now)
            if let alert = activity.alerts.last, alert.apnsID == template.apnsID {
                publish(.alertShown, data: alertData(alert, activity: activity), at: now)
            }
            announce(activityID: activityID, at: now)
        case .decodeFailure:
            publish(.decodeFailure, data: SimulatorJSON.tree(entry), at: now)
        default:
            publish(.pushIgnored, data: SimulatorJSON.tree(entry), at: now)
        }
        return outcome
    }

    private func decideUpdate(
        _ content: ActivityPushContent, priority: APNsPriority, apnsID: String, activity: inout SimulatedActivity,
        at now: Date, cache: inout ContentStateCheckCache
    ) -> DeviceOutcome {
        let state = activity.lifecycle(at: now)
        if state == .ended || state == .dismissed {
            return DeviceOutcome(.ignoredAfterEnd, "the activity ended at \(Self.iso(activity.endedAt ?? now))")
        }
        let isEnd: Bool
        switch content.event {
        case "update": isEnd = false
        case "end": isEnd = true
        case "start":
            return DeviceOutcome(.dropped, "event start is only accepted on the app's push-to-start token")
        case let other:
            return DeviceOutcome(.dropped, "aps.event is \(other.map { "'\($0)'" } ?? "missing"); expected update or end")
        }
        if priority == .immediate, let limit = budget(for: activity.deviceID) {
            if activity.budget.count(within: 3600, at: now) >= limit {
                return DeviceOutcome(.throttled, "over the budget of \(limit) priority-10 pushes per hour; send routine updates at priority 5")
            }
        }
        guard let timestamp = content.timestamp else {
            return DeviceOutcome(.dropped, "aps.timestamp is missing; the device cannot order the update")
        }
        if let last = activity.lastTimestamp,
            timestamp < last || (rules.ignoreEqualTimestamps && timestamp == last)
        {
            return DeviceOutcome(.ignoredOlderTimestamp, "timestamp \(Self.unix(timestamp)) is not newer than the current \(Self.unix(last))")
        }
        // An end may omit content-state: the activity keeps showing its last state until dismissed.
        if let contentState = content.contentState {
            if let failure = cache.failure(of: contentState, against: activity.schema) {
                return DeviceOutcome(.decodeFailure, failure)
            }
            activity.contentState = contentState
        } else if !isEnd {
            return DeviceOutcome(.decodeFailure, "aps.content-state is missing; an update needs one (only an end may omit it)")
        }
        activity.lastTimestamp = timestamp
        activity.staleDate = content.staleDate
        if let score = content.relevanceScore { activity.relevanceScore = score }
        if priority == .immediate { activity.budget.record(now) }
        if let alert = content.resolvedAlert(table: table(for: activity), receivedAt: now, apnsID: apnsID) {
            activity.alerts.append(alert)
        }
        if isEnd {
            activity.end(at: now, cause: .push, requestedDismissal: content.dismissalDate, rules: rules)
        }
        return DeviceOutcome(.applied, isEnd ? "end" : "update")
    }

    /// A push to a push-to-start token: creates an activity when the payload is a valid start and the
    /// app's push-to-start budget (`DeviceRules.pushToStartBudget`) has room.
    func applyStart(_ push: ReceivedPush, deviceID: String, bundleID: String, at now: Date) -> DeviceOutcome {
        var activityID: String?
        let outcome = decideStart(push, deviceID: deviceID, bundleID: bundleID, at: now, created: &activityID)
        let entry = makeRecord(push, status: 200, reason: nil, outcome: outcome, deviceID: deviceID, activityID: activityID)
        appendStartHistory(entry, deviceID: deviceID, bundleID: bundleID)
        if let activityID {
            activities[activityID]?.appendHistory(HistoryEntry(entry), limit: rules.historyLimit)
        } else {
            publish(outcome.kind == .decodeFailure ? .decodeFailure : .pushIgnored, data: SimulatorJSON.tree(entry), at: now)
        }
        return outcome
    }

    private func decideStart(
        _ push: ReceivedPush, deviceID: String, bundleID: String, at now: Date, created: inout String?
    ) -> DeviceOutcome {
        let content: ActivityPushContent
        switch ActivityPushContent.read(push.payload) {
        case .success(let read): content = read
        case .failure(let error): return DeviceOutcome(.decodeFailure, error.message)
        }
        guard content.event == "start" else {
            return DeviceOutcome(.dropped, "a push-to-start token accepts only event start; got \(content.event.map { "'\($0)'" } ?? "no event")")
        }
        guard content.alert != nil else {
            return DeviceOutcome(.dropped, "a start needs aps.alert; the device drops a start without one")
        }
        if let exceeded = pushToStartBudgetExceeded(deviceID: deviceID, bundleID: bundleID, at: now) { return exceeded }
        guard let attributesType = content.attributesType else {
            return DeviceOutcome(.decodeFailure, "aps.attributes-type is missing")
        }
        guard let device = devices[deviceID], let app = apps[AppKey(bundleID: bundleID, environment: device.environment)] else {
            return DeviceOutcome(.dropped, "the app is not installed")
        }
        var declaredSchema: ContentStateSchema?
        if let declared = app.attributesTypes {
            guard let schema = declared[attributesType] else {
                return DeviceOutcome(
                    .decodeFailure,
                    "attributes-type '\(attributesType)' is not one of the app's types (\(declared.keys.sorted().joined(separator: ", ")))")
            }
            declaredSchema = schema
        }
        guard let attributes = content.attributes, attributes.objectValue != nil else {
            return DeviceOutcome(.decodeFailure, "aps.attributes is \(content.attributes?.typeName ?? "missing"); expected an object")
        }
        guard let contentState = content.contentState else {
            return DeviceOutcome(.decodeFailure, "aps.content-state is missing")
        }
        let schema = declaredSchema ?? ContentStateSchema(inferringFrom: contentState)
        let mismatches = schema.check(contentState)
        if !mismatches.isEmpty {
            return DeviceOutcome(.decodeFailure, mismatches.map(\.description).joined(separator: "; "))
        }
        if let channelID = content.inputPushChannel,
            !hasChannel(channelID, bundleID: bundleID, environment: device.environment)
        {
            return DeviceOutcome(
                .dropped,
                "input-push-channel '\(channelID)' is not a channel of \(bundleID) in \(device.environment.rawValue); the activity does not start")
        }
        let issueToken = content.inputPushToken || rules.issueUpdateTokenWithoutInputPushToken
        var activity = SimulatedActivity(
            id: UUID().uuidString, deviceID: deviceID, bundleID: bundleID, attributesType: attributesType,
            attributes: attributes, schema: schema, startedAt: now, contentState: contentState, pushToken: nil,
            relevanceScore: content.relevanceScore ?? 0, staleDate: content.staleDate, lastTimestamp: content.timestamp
        )
        if let alert = content.resolvedAlert(table: app.localizations, receivedAt: now, apnsID: push.apnsID) {
            activity.alerts.append(alert)
        }
        created = activity.id
        if let index = devices[deviceID]?.appIndex(bundleID) { devices[deviceID]?.apps[index].startBudget.record(now) }
        insert(activity, at: now)
        if let alert = activity.alerts.last {
            publish(.alertShown, data: alertData(alert, activity: activity), at: now)
        }
        if issueToken { issueUpdateToken(activityID: activity.id, at: now) }
        if let channelID = content.inputPushChannel { subscribe(activityID: activity.id, channelID: channelID, at: now) }
        let channelNote = content.inputPushChannel.map { ", subscribed to channel \($0)" } ?? ""
        return DeviceOutcome(.started, "activity \(activity.id)\(issueToken ? "" : ", no update token (input-push-token absent)")\(channelNote)")
    }

    /// The throttled outcome when the app on this device has used its push-to-start budget.
    private func pushToStartBudgetExceeded(deviceID: String, bundleID: String, at now: Date) -> DeviceOutcome? {
        guard let limit = rules.pushToStartBudget, let index = devices[deviceID]?.appIndex(bundleID) else { return nil }
        guard let used = devices[deviceID]?.apps[index].startBudget.count(within: limit.window, at: now), used >= limit.maximumPushes else {
            return nil
        }
        return DeviceOutcome(
            .throttled, "Push-to-start budget exceeded: \(limit.maximumPushes) starts within \(Int(limit.window)) s; the start is dropped")
    }

    /// Adds an activity to the world and its device, and publishes it.
    func insert(_ activity: SimulatedActivity, at now: Date) {
        activities[activity.id] = activity
        devices[activity.deviceID]?.activityIDs.append(activity.id)
        publish(.activityStarted, data: SimulatorJSON.tree(activity.snapshot(at: now, rules: rules)), at: now)
        announce(activityID: activity.id, at: now)
    }

    func budget(for deviceID: String) -> Int? {
        devices[deviceID]?.frequentPushesEnabled == true ? rules.frequentHourlyPriority10Budget : rules.hourlyPriority10Budget
    }

    func table(for activity: SimulatedActivity) -> [String: String] {
        guard let environment = devices[activity.deviceID]?.environment else { return [:] }
        return apps[AppKey(bundleID: activity.bundleID, environment: environment)]?.localizations ?? [:]
    }

    func alertData(_ alert: AlertRecord, activity: SimulatedActivity) -> JSONValue {
        var object = SimulatorJSON.tree(alert).objectValue ?? [:]
        object["activityId"] = .string(activity.id)
        object["deviceId"] = .string(activity.deviceID)
        return .object(object)
    }

    static func unix(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970.rounded(.down))) }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
