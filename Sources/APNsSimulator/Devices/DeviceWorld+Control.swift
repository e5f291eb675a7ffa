import APNsCore
import Foundation
import LiveActivity

extension DeviceWorld {
    // MARK: - Apps and devices

    /// Registers (or replaces) an app for one environment.
    @discardableResult
    public func registerApp(_ request: AppRegistration) throws(DeviceWorldError) -> AppSnapshot {
        let bundleID = try Self.validBundleID(request.bundleID)
        let environment = try Self.environment(request.environment)
        if let declared = request.attributesTypes?.schemas, declared.keys.contains(where: \.isEmpty) {
            throw DeviceWorldError(.invalid, field: "attributesTypes", "type names must not be empty")
        }
        let key = AppKey(bundleID: bundleID, environment: environment)
        let app = SimulatedApp(
            bundleID: bundleID, environment: environment,
            localizations: request.localizations ?? [:], attributesTypes: request.attributesTypes?.schemas)
        if apps.updateValue(app, forKey: key) == nil { appOrder.append(key) }
        publish(.appRegistered, data: SimulatorJSON.tree(app.snapshot()))
        return app.snapshot()
    }

    /// Every registered app.
    public func registeredApps() -> [AppSnapshot] {
        appOrder.compactMap { apps[$0]?.snapshot() }
    }

    /// Adds a device with one app installed (registered on the fly, without localizations, when unknown).
    public func addDevice(_ request: DeviceRegistration) throws(DeviceWorldError) -> DeviceCreated {
        let name = request.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw DeviceWorldError(.invalid, field: "name", "must not be empty") }
        let bundleID = try Self.validBundleID(request.bundleID)
        let environment = try Self.environment(request.environment)
        var webhook: WebhookURL?
        if let text = request.webhookURL {
            switch WebhookURL.parse(text, allowRemote: rules.allowRemoteWebhooks) {
            case .success(let url): webhook = url
            case .failure(let error): throw error
            }
        }
        let now = clock.now()
        let device = SimulatedDevice(
            id: UUID().lowercased, name: name, environment: environment,
            frequentPushesEnabled: request.frequentPushesEnabled ?? false, webhookURL: webhook, createdAt: now, apps: []
        )
        devices[device.id] = device
        deviceOrder.append(device.id)
        publish(
            .deviceAdded,
            data: .object([
                "deviceId": .string(device.id), "name": .string(name), "environment": .string(environment.rawValue),
            ]), at: now)
        let token = install(bundleID: bundleID, deviceID: device.id, at: now)
        return DeviceCreated(deviceID: device.id, pushToStartToken: token)
    }

    /// Installs another app on a device; returns its push-to-start token.
    public func installApp(bundleID: String, onDevice deviceID: String) throws(DeviceWorldError) -> String {
        let bundleID = try Self.validBundleID(bundleID)
        let device = try requireDevice(deviceID)
        if let index = device.appIndex(bundleID) { return device.apps[index].pushToStartToken }
        return install(bundleID: bundleID, deviceID: deviceID, at: clock.now())
    }

    private func install(bundleID: String, deviceID: String, at now: Date) -> String {
        guard let device = devices[deviceID] else { return "" }
        let key = AppKey(bundleID: bundleID, environment: device.environment)
        if apps[key] == nil {
            apps[key] = SimulatedApp(bundleID: bundleID, environment: device.environment, localizations: [:], attributesTypes: nil)
            appOrder.append(key)
        }
        devices[deviceID]?.apps.append(InstalledApp(bundleID: bundleID, pushToStartToken: ""))
        publish(.appInstalled, data: .object(["deviceId": .string(deviceID), "bundleId": .string(bundleID)]), at: now)
        return issuePushToStartToken(deviceID: deviceID, bundleID: bundleID, at: now) ?? ""
    }

    /// Every device, in the order they were added.
    public func allDevices() -> [DeviceSnapshot] {
        let now = clock.now()
        settleAll(at: now)
        return deviceOrder.compactMap { devices[$0].map { deviceSnapshot($0, at: now) } }
    }

    /// One device, its activities ordered by relevance.
    public func device(id: String) throws(DeviceWorldError) -> DeviceSnapshot {
        let device = try requireDevice(id)
        let now = clock.now()
        for activityID in device.activityIDs { settle(activityID: activityID, at: now) }
        return deviceSnapshot(devices[id] ?? device, at: now)
    }

    /// Gives the device's app a new push-to-start token (default: the first app).
    public func rotatePushToStartToken(deviceID: String, bundleID: String? = nil) throws(DeviceWorldError) -> String {
        let device = try requireDevice(deviceID)
        let bundleID = bundleID ?? device.apps.first?.bundleID ?? ""
        guard device.appIndex(bundleID) != nil else {
            throw DeviceWorldError(.notFound, field: "bundleId", "app '\(bundleID)' is not installed on device \(deviceID)")
        }
        return issuePushToStartToken(deviceID: deviceID, bundleID: bundleID, at: clock.now()) ?? ""
    }

    // MARK: - Activities

    /// Starts an activity from the app (`Activity.request` with push type token) and issues its update token.
    public func startActivity(deviceID: String, _ request: ActivityRequest) throws(DeviceWorldError) -> ActivityCreated {
        guard request.channelID == nil else {
            throw DeviceWorldError(
                .invalid, field: "channelId",
                "an activity subscribed to a channel gets no update token; start it with startChannelActivity")
        }
        let now = clock.now()
        let activity = try makeActivity(deviceID: deviceID, request, at: now)
        insert(activity, at: now)
        let token = issueUpdateToken(activityID: activity.id, at: now) ?? ""
        return ActivityCreated(activityID: activity.id, pushToken: token)
    }

    /// Starts an activity subscribed to `request.channelId` (`Activity.request` with push type
    /// `.channel(id)`): no update token; a message the channel stores is applied at once.
    public func startChannelActivity(deviceID: String, _ request: ActivityRequest) throws(DeviceWorldError) -> ChannelActivityCreated {
        let now = clock.now()
        let (activity, channelID) = try makeChannelActivity(deviceID: deviceID, request, at: now)
        insert(activity, at: now)
        subscribe(activityID: activity.id, channelID: channelID, at: now)
        return ChannelActivityCreated(activityID: activity.id, channelID: channelID)
    }

    /// Starts `count` activities alike, each subscribed to `request.channelId`. Checks the request once.
    public func startChannelActivities(deviceID: String, _ request: ActivityRequest, count: Int) throws(DeviceWorldError) -> BulkActivitiesCreated {
        guard (1...1_000_000).contains(count) else {
            throw DeviceWorldError(.invalid, field: "count", "\(count) is outside 1-1000000")
        }
        let now = clock.now()
        let (first, channelID) = try makeChannelActivity(deviceID: deviceID, request, at: now)
        activities.reserveCapacity(activities.count + count)
        for index in 0..<count {
            var activity = first
            if index > 0 { activity = first.copy(id: UUID().uuidString) }
            insert(activity, at: now)
            subscribe(activityID: activity.id, channelID: channelID, at: now)
        }
        return BulkActivitiesCreated(created: count, channelID: channelID, subscriberCount: channels[channelID]?.subscribers.count ?? 0)
    }

    private func makeChannelActivity(deviceID: String, _ request: ActivityRequest, at now: Date) throws(DeviceWorldError) -> (
        SimulatedActivity, String
    ) {
        guard let channelID = request.channelID, !channelID.isEmpty else {
            throw DeviceWorldError(.invalid, field: "channelId", "is missing; give the base64 id of a channel of the activity's app")
        }
        let activity = try makeActivity(deviceID: deviceID, request, at: now)
        guard let environment = devices[deviceID]?.environment,
            hasChannel(channelID, bundleID: activity.bundleID, environment: environment)
        else {
            throw DeviceWorldError(
                .notFound, field: "channelId",
                "no channel '\(channelID)' for \(activity.bundleID) in \(devices[deviceID]?.environment.rawValue ?? "this environment"); the activity does not start"
            )
        }
        return (activity, channelID)
    }

    /// Checks an app-started activity and builds it (not yet inserted).
    private func makeActivity(deviceID: String, _ request: ActivityRequest, at now: Date) throws(DeviceWorldError) -> SimulatedActivity {
        let device = try requireDevice(deviceID)
        guard let bundleID = request.bundleID ?? device.apps.first?.bundleID, device.appIndex(bundleID) != nil else {
            throw DeviceWorldError(.invalid, field: "bundleId", "app '\(request.bundleID ?? "")' is not installed on device \(deviceID)")
        }
        guard !request.attributesType.isEmpty else {
            throw DeviceWorldError(.invalid, field: "attributesType", "must be the name of the app's ActivityAttributes type")
        }
        let app = apps[AppKey(bundleID: bundleID, environment: device.environment)]
        var declaredSchema: ContentStateSchema?
        if let declared = app?.attributesTypes {
            guard let schema = declared[request.attributesType] else {
                throw DeviceWorldError(
                    .invalid, field: "attributesType",
                    "'\(request.attributesType)' is not one of the app's types: \(declared.keys.sorted().joined(separator: ", "))")
            }
            declaredSchema = schema
        }
        guard request.attributes.objectValue != nil else {
            throw DeviceWorldError(.invalid, field: "attributes", "is \(request.attributes.typeName); expected an object")
        }
        guard request.contentState.objectValue != nil else {
            throw DeviceWorldError(.invalid, field: "contentState", "is \(request.contentState.typeName); expected an object")
        }
        if let score = request.relevanceScore, !score.isFinite {
            throw DeviceWorldError(.invalid, field: "relevanceScore", "must be a finite number")
        }
        let schema = request.contentStateSchema ?? declaredSchema ?? ContentStateSchema(inferringFrom: request.contentState)
        let mismatches = schema.check(request.contentState)
        guard mismatches.isEmpty else {
            throw DeviceWorldError(
                .invalid, field: "contentState",
                "does not match the content-state schema: \(mismatches.map(\.description).joined(separator: "; "))")
        }
        return SimulatedActivity(
            id: UUID().uuidString, deviceID: deviceID, bundleID: bundleID, attributesType: request.attributesType,
            attributes: request.attributes, schema: schema, startedAt: now, contentState: request.contentState,
            pushToken: nil, relevanceScore: request.relevanceScore ?? 0, staleDate: request.staleDate,
            lastTimestamp: nil
        )
    }

    /// One activity with its full history.
    public func activity(id: String) throws(DeviceWorldError) -> ActivitySnapshot {
        guard activities[id] != nil else { throw DeviceWorldError(.notFound, field: "activityId", "no activity '\(id)'") }
        let now = clock.now()
        settle(activityID: id, at: now)
        guard let activity = activities[id] else { throw DeviceWorldError(.notFound, field: "activityId", "no activity '\(id)'") }
        return activity.snapshot(at: now, rules: rules)
    }

    /// Gives an activity a new update token (the activity's routing changed); returns it.
    public func rotateActivityToken(activityID: String) throws(DeviceWorldError) -> String {
        let now = clock.now()
        let snapshot = try activity(id: activityID)
        guard snapshot.state != .dismissed else {
            throw DeviceWorldError(.conflict, field: "activityId", "activity \(activityID) is dismissed; its token cannot be rotated")
        }
        return issueUpdateToken(activityID: activityID, at: now) ?? ""
    }

    /// Ends an activity from the app or by the user: default dismissal, or at once when `immediate`.
    public func endActivity(activityID: String, immediate: Bool = false) throws(DeviceWorldError) -> ActivitySnapshot {
        let now = clock.now()
        let snapshot = try activity(id: activityID)
        guard snapshot.state != .ended, snapshot.state != .dismissed else {
            throw DeviceWorldError(.conflict, field: "activityId", "activity \(activityID) has already ended")
        }
        activities[activityID]?.end(at: now, cause: .app, requestedDismissal: immediate ? now : nil, rules: rules)
        announce(activityID: activityID, at: now)
        return try activity(id: activityID)
    }

    /// Pushes accepted for tokens no device owns (with `acceptUnknownTokens`).
    public func unroutedPushHistory() -> [PushRecord] { unroutedPushes }

    // MARK: - Helpers

    private func requireDevice(_ id: String) throws(DeviceWorldError) -> SimulatedDevice {
        guard let device = devices[id] else { throw DeviceWorldError(.notFound, field: "deviceId", "no device '\(id)'") }
        return device
    }

    private func deviceSnapshot(_ device: SimulatedDevice, at now: Date) -> DeviceSnapshot {
        let ordered = device.activityIDs.compactMap { activities[$0]?.snapshot(at: now, rules: rules) }
            .enumerated()
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element, rhs.element)
                let leftGone = left.state == .dismissed
                let rightGone = right.state == .dismissed
                if leftGone != rightGone { return !leftGone }
                if left.relevanceScore != right.relevanceScore { return left.relevanceScore > right.relevanceScore }
                return lhs.offset > rhs.offset
            }
            .map(\.element)
        return DeviceSnapshot(
            deviceID: device.id, name: device.name, environment: device.environment,
            frequentPushesEnabled: device.frequentPushesEnabled, webhookURL: device.webhookURL?.description,
            createdAt: device.createdAt,
            apps: device.apps.map { InstalledAppSnapshot(bundleID: $0.bundleID, pushToStartToken: $0.pushToStartToken, history: $0.history) },
            activities: ordered, webhookDeliveries: device.webhookDeliveries
        )
    }

    static func validBundleID(_ value: String) throws(DeviceWorldError) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-"))
        guard !value.isEmpty, value.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw DeviceWorldError(
                .invalid, field: "bundleId", "'\(value)' is not a bundle id; use letters, digits, '.' and '-' (e.g. com.example.app)")
        }
        guard !value.hasSuffix(".push-type.liveactivity") else {
            throw DeviceWorldError(.invalid, field: "bundleId", "give the bundle id without the .push-type.liveactivity topic suffix")
        }
        return value
    }

    static func environment(_ value: String) throws(DeviceWorldError) -> APNsEnvironment {
        switch value.lowercased() {
        case "sandbox", "development": return .sandbox
        case "production": return .production
        default:
            throw DeviceWorldError(.invalid, field: "environment", "'\(value)' is not an environment; accepted: sandbox (or development), production")
        }
    }
}
