import APNsSimulator
import Foundation
import LiveActivity
import LivePushKit
import Logging

/// LivePushKit's ActivityKit adapter for a simulated iPhone: it reads one app's Live Activities of one
/// attributes type from the simulator's ``DeviceWorld`` and makes the calls `LivePush.track` makes on a
/// device, through the same ``LiveActivityEventSink`` protocol, so a ``LivePushReporter`` (or any sink)
/// runs on Linux as it would in the app.
///
/// What maps to what:
/// - `Activity.activities` at launch: the device's activities of the type (those started by push while
///   the app was not running among them); their update tokens, and the end of those that ended.
/// - `pushTokenUpdates`: the simulator's `tokenIssued` / `tokenRotated` events for an activity's token
///   (also for activities started by push, whose token the device issues).
/// - `activityStateUpdates`: `activityEnded` (reported without a dismissal date, as ActivityKit gives
///   none) and `activityDismissed`.
/// - `pushToStartTokenUpdates` and the `pushToStartToken` property: the app's push-to-start token events,
///   and the installed app's token read at launch and on ``enterForeground()`` (see ``PushToStart``).
/// - `ActivityAuthorizationInfo`: activities enabled, and the device's `frequentPushesEnabled`.
///
/// ```swift
/// let adapter = SimulatedActivityAdapter(
///     world: apns.simulator.world, deviceID: iPhone.id, bundleID: apns.bundleID,
///     attributesType: "AdventureAttributes", sink: reporter)
/// await withTaskGroup(of: Void.self) { group in
///     group.addTask { await reporter.run() }
///     group.addTask { await adapter.run() }   // until cancelled, like LivePush.track
///     …
/// }
/// ```
public struct SimulatedActivityAdapter: Sendable {
    /// How the app's push-to-start token reaches the sink.
    public enum PushToStart: Sendable, Hashable {
        /// From the stream (each new or rotated token) and from the property at launch and on every foreground.
        case streamAndProperty
        /// From the property only: the launches where `pushToStartTokenUpdates` never yields. A rotated token
        /// reaches the sink at the next ``SimulatedActivityAdapter/enterForeground()`` or launch.
        case propertyOnly
        /// Not at all: an attributes type the app does not start by push.
        case none
    }

    public let world: DeviceWorld
    public let deviceID: String
    public let bundleID: String
    public let attributesType: String
    public let pushToStart: PushToStart
    let sink: any LiveActivityEventSink
    let groups: @Sendable (_ attributes: JSONValue) -> [String]
    let logger: Logger
    /// The ContentState shape of an activity's content-state, when the app's type is known.
    var contentStateShape: (@Sendable (_ contentState: JSONValue) -> ContentStateShape?)?

    /// - Parameters:
    ///   - world: The simulator's devices (`Simulator.world`).
    ///   - deviceID: The simulated iPhone the app runs on.
    ///   - bundleID: The app's bundle id on it.
    ///   - attributesType: The `ActivityAttributes` type followed, as `LivePush.track(Type.self, …)` follows one.
    ///   - sink: Where the calls go: a ``LivePushReporter``.
    ///   - pushToStart: How the push-to-start token arrives.
    ///   - groups: The server groups an activity joins, from its attributes (as `track`'s `groups`): groups
    ///     the user token grants (the backend lists them when it mints it).
    public init(
        world: DeviceWorld, deviceID: String, bundleID: String, attributesType: String, sink: some LiveActivityEventSink,
        pushToStart: PushToStart = .streamAndProperty, groups: @escaping @Sendable (_ attributes: JSONValue) -> [String] = { _ in [] },
        logger: Logger = Logger(label: "livepush.kit.simulated-adapter")
    ) {
        self.world = world
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.sink = sink
        self.pushToStart = pushToStart
        self.groups = groups
        self.logger = logger
    }

    /// An adapter that also gives the sink the shape of the app's `ContentState` type, derived from each
    /// followed activity's content-state decoded as `State` (``ContentStateShape/init(deriving:)``), as
    /// `LivePush.track` does on a device: the reporter sends it with the registrations, and the server then
    /// refuses updates this type could not decode. The other parameters are the same as above.
    public init<State: Codable & Sendable>(
        world: DeviceWorld, deviceID: String, bundleID: String, attributesType: String, contentState: State.Type,
        sink: some LiveActivityEventSink, pushToStart: PushToStart = .streamAndProperty,
        groups: @escaping @Sendable (_ attributes: JSONValue) -> [String] = { _ in [] },
        logger: Logger = Logger(label: "livepush.kit.simulated-adapter")
    ) {
        self.init(
            world: world, deviceID: deviceID, bundleID: bundleID, attributesType: attributesType, sink: sink, pushToStart: pushToStart,
            groups: groups, logger: logger)
        contentStateShape = { json in
            guard let state = try? JSONDecoder().decode(State.self, from: json.serialized()) else { return nil }
            return try? ContentStateShape(deriving: state)
        }
    }

    /// Follows the app's activities until the calling task is cancelled or the simulator shuts down: a
    /// ``launch()``, then every device event, as `LivePush.track` does. It subscribes to the events before
    /// it reads, so that nothing happens unseen in between (what is seen twice, the sink takes once).
    public func run() async {
        let events = world.events.subscribe()
        await launch()
        for await event in events {
            if Task.isCancelled { return }
            await handle(event)
        }
    }

    /// What the app reads when it starts: the authorization, the push-to-start property, and every
    /// activity of the type still on the device with its token (and its end, when it ended). Returns once
    /// the sink has all of it.
    public func launch() async {
        guard let device = await snapshot() else { return }
        await report(authorizationOf: device)
        await readPushToStartProperty(device)
        for activity in device.activities where follows(activity) {
            if let hex = activity.pushToken { await reportToken(hex, of: activity) }
            switch activity.state {
            case .ended: await sink.activityEnded(activityID: activity.activityID, .ended(dismissalDate: nil))
            case .dismissed: await sink.activityEnded(activityID: activity.activityID, .dismissed)
            default: break
            }
        }
    }

    /// A return to the foreground (`willEnterForegroundNotification`): the push-to-start property and the
    /// authorization are read again.
    public func enterForeground() async {
        guard let device = await snapshot() else { return }
        await readPushToStartProperty(device)
        await report(authorizationOf: device)
    }

    // MARK: Reads

    func snapshot() async -> DeviceSnapshot? {
        do {
            return try await world.device(id: deviceID)
        } catch {
            logger.warning("simulated iPhone not found", metadata: ["deviceId": "\(deviceID)", "problem": "\(error.description)"])
            return nil
        }
    }

    func follows(_ activity: ActivitySnapshot) -> Bool {
        activity.attributesType == attributesType && activity.bundleID == bundleID
    }

    func report(authorizationOf device: DeviceSnapshot) async {
        await sink.authorization(ActivityAuthorization(activitiesEnabled: true, frequentPushesEnabled: device.frequentPushesEnabled))
    }

    func readPushToStartProperty(_ device: DeviceSnapshot) async {
        guard pushToStart != .none, let app = device.apps.first(where: { $0.bundleID == bundleID }) else { return }
        guard let token = PushToken(hex: app.pushToStartToken) else { return }
        await sink.pushToStartToken(token, attributesType: attributesType, source: .property)
    }

    func reportToken(_ hex: String, of activity: ActivitySnapshot) async {
        guard let token = PushToken(hex: hex) else {
            logger.warning("an activity token that is not hex", metadata: ["activityId": "\(activity.activityID)"])
            return
        }
        if let shape = contentStateShape?(activity.contentState) { await sink.contentStateShape(shape, attributesType: attributesType) }
        await sink.activityToken(
            token, activityID: activity.activityID, attributesType: attributesType, groups: groups(activity.attributes),
            liveActivityKey: activity.attributes["livePushKey"]?.stringValue)
    }
}
