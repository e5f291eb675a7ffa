import Foundation
import Synchronization

/// What backs the interface on Linux, and how a test plays the system's part: start activities (as the app
/// or a push would), hand out tokens, end them, change the authorization. Not part of ActivityKit.
public enum ActivityKitControl {
    /// ActivityAuthorizationInfo's two switches.
    public struct Authorization: Sendable {
        public var activitiesEnabled: Bool
        public var frequentPushesEnabled: Bool

        public init(activitiesEnabled: Bool = true, frequentPushesEnabled: Bool = false) {
            self.activitiesEnabled = activitiesEnabled
            self.frequentPushesEnabled = frequentPushesEnabled
        }
    }

    private static let registries = Mutex<[ObjectIdentifier: TypeRegistry]>([:])
    private static let authorizationState = Mutex((value: Authorization(), streams: [AsyncStream<Authorization>.Continuation]()))

    /// The registry of one attributes type.
    static func registry<Attributes: ActivityAttributes>(of type: Attributes.Type) -> TypeRegistry {
        registries.withLock { all in
            if let known = all[ObjectIdentifier(type)] { return known }
            let new = TypeRegistry()
            all[ObjectIdentifier(type)] = new
            return new
        }
    }

    /// A new activity of `type`, as `Activity.request` or a push-to-start push makes it.
    static func start<Attributes: ActivityAttributes>(_ type: Attributes.Type, attributes: Data, contentState: Data) -> ActivityStorage {
        let storage = ActivityStorage(id: UUID().uuidString, attributes: attributes, contentState: contentState)
        registry(of: type).add(storage)
        return storage
    }

    /// Starts an activity as a push-to-start push would (the app did not request it); returns its id.
    public static func startByPush<Attributes: ActivityAttributes>(_ attributes: Attributes, contentState: Attributes.ContentState) throws -> String {
        start(Attributes.self, attributes: try JSONEncoder().encode(attributes), contentState: try JSONEncoder().encode(contentState)).id
    }

    /// Gives activity `id` of `type` its (next) update token, as the system does after it starts and on rotation.
    public static func issueToken<Attributes: ActivityAttributes>(_ token: Data, to id: String, of type: Attributes.Type) {
        registry(of: type).activity(id: id)?.issue(token)
    }

    /// Moves activity `id` of `type` to `state` (ended, dismissed …).
    public static func setState<Attributes: ActivityAttributes>(_ state: ActivityState, of id: String, type: Attributes.Type) {
        registry(of: type).activity(id: id)?.move(to: state)
    }

    /// Sets `Activity<type>.pushToStartToken`; `yieldToStream` false leaves `pushToStartTokenUpdates` silent, as
    /// on the launches where it never yields.
    public static func setPushToStartToken<Attributes: ActivityAttributes>(_ token: Data, of type: Attributes.Type, yieldToStream: Bool) {
        registry(of: type).setPushToStartToken(token, yield: yieldToStream)
    }

    /// Changes what ActivityAuthorizationInfo says, and tells its update sequences.
    public static func setAuthorization(_ authorization: Authorization) {
        let streams = authorizationState.withLock { state in
            state.value = authorization
            return state.streams
        }
        for stream in streams { stream.yield(authorization) }
    }

    static var authorization: Authorization { authorizationState.withLock { $0.value } }

    static func authorizationStream(_ field: KeyPath<Authorization, Bool> & Sendable) -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Authorization>.makeStream()
        authorizationState.withLock { $0.streams.append(continuation) }
        return AsyncStream { output in
            let task = Task {
                for await value in stream { output.yield(value[keyPath: field]) }
                output.finish()
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    /// Forgets every activity, token and stream (between tests).
    public static func reset() {
        let old = registries.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for registry in old { registry.finish() }
        authorizationState.withLock { state in
            for stream in state.streams { stream.finish() }
            state = (Authorization(), [])
        }
    }
}

/// The activities and push-to-start token of one attributes type.
final class TypeRegistry: Sendable {
    private struct State {
        var activities: [ActivityStorage] = []
        var pushToStartToken: Data?
        /// Whether `pushToStartTokenUpdates` hands the token over (it does not on some launches).
        var streamHasToken = false
        var activityStreams: [AsyncStream<ActivityStorage>.Continuation] = []
        var pushToStartStreams: [AsyncStream<Data>.Continuation] = []
    }

    private let state = Mutex(State())

    var activities: [ActivityStorage] { state.withLock { $0.activities } }
    var pushToStartToken: Data? { state.withLock { $0.pushToStartToken } }

    func activity(id: String) -> ActivityStorage? { state.withLock { $0.activities.first { $0.id == id } } }

    func add(_ storage: ActivityStorage) {
        let streams = state.withLock { state in
            state.activities.append(storage)
            return state.activityStreams
        }
        for stream in streams { stream.yield(storage) }
    }

    func setPushToStartToken(_ token: Data, yield: Bool) {
        let streams = state.withLock { state in
            state.pushToStartToken = token
            state.streamHasToken = yield
            return state.pushToStartStreams
        }
        if yield { for stream in streams { stream.yield(token) } }
    }

    func activityStream() -> AsyncStream<ActivityStorage> {
        let (stream, continuation) = AsyncStream<ActivityStorage>.makeStream()
        state.withLock { $0.activityStreams.append(continuation) }
        return stream
    }

    /// Like the token updates of an activity, a new subscriber first gets the current token (when the
    /// stream has it).
    func pushToStartStream() -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let current = state.withLock { state in
            state.pushToStartStreams.append(continuation)
            return state.streamHasToken ? state.pushToStartToken : nil
        }
        if let current { continuation.yield(current) }
        return stream
    }

    func finish() {
        let all = state.withLock { state in (state.activityStreams, state.pushToStartStreams, state.activities) }
        for stream in all.0 { stream.finish() }
        for stream in all.1 { stream.finish() }
        for activity in all.2 { activity.finish() }
    }
}

/// One activity's state, token and observers.
final class ActivityStorage: Sendable {
    private struct State {
        var activityState = ActivityState.active
        var pushToken: Data?
        var tokenStreams: [AsyncStream<Data>.Continuation] = []
        var stateStreams: [AsyncStream<ActivityState>.Continuation] = []
    }

    let id: String
    let attributes: Data
    /// The content-state it started with, encoded (the interface does not model updates).
    let contentState: Data
    private let state = Mutex(State())

    init(id: String, attributes: Data, contentState: Data) {
        self.id = id
        self.attributes = attributes
        self.contentState = contentState
    }

    var activityState: ActivityState { state.withLock { $0.activityState } }
    var pushToken: Data? { state.withLock { $0.pushToken } }

    func issue(_ token: Data) {
        let streams = state.withLock { state in
            state.pushToken = token
            return state.tokenStreams
        }
        for stream in streams { stream.yield(token) }
    }

    func move(to new: ActivityState) {
        let streams = state.withLock { state in
            state.activityState = new
            return state.stateStreams
        }
        for stream in streams { stream.yield(new) }
    }

    /// A new subscriber first gets the current token, if there is one.
    func tokenStream() -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let current = state.withLock { state in
            state.tokenStreams.append(continuation)
            return state.pushToken
        }
        if let current { continuation.yield(current) }
        return stream
    }

    func stateStream() -> AsyncStream<ActivityState> {
        let (stream, continuation) = AsyncStream<ActivityState>.makeStream()
        state.withLock { $0.stateStreams.append(continuation) }
        return stream
    }

    func finish() {
        let all = state.withLock { ($0.tokenStreams, $0.stateStreams) }
        for stream in all.0 { stream.finish() }
        for stream in all.1 { stream.finish() }
    }
}
