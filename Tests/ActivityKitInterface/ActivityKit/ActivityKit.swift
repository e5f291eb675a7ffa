import Foundation

// The documented ActivityKit signatures LivePushKit's adapter calls, mirrored for Linux (Apple's SDK is not
// there) so that CI type-checks the adapter and drives it in tests. Declarations follow Apple's interface
// (`Activity` and `ActivityAuthorizationInfo` are classes that are not Sendable, `ActivityState` is an
// enum the adapter switches over with a default); what backs them is ours, in ActivityKitControl.swift.
// Test-only: never a product, never shipped.

public protocol ActivityAttributes: Decodable, Encodable {
    associatedtype ContentState: Decodable, Encodable, Hashable
}

public enum ActivityState: Sendable, Codable, Hashable {
    case pending
    case active
    case ended
    case dismissed
    case stale
}

public struct PushType: Equatable {
    let name: String
    public static var token: PushType { PushType(name: "token") }
    public static func channel(_ name: String) -> PushType { PushType(name: "channel:\(name)") }
}

public struct ActivityContent<State> where State: Decodable, State: Encodable, State: Hashable {
    public let state: State
    public let staleDate: Date?
    public let relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension ActivityContent: Sendable where State: Sendable {}

public enum ActivityAuthorizationError: Error, Equatable {
    case denied
    case unsupported
}

public class Activity<Attributes>: Identifiable where Attributes: ActivityAttributes {
    public typealias ContentState = Attributes.ContentState

    public final let id: String
    public final let attributes: Attributes
    let storage: ActivityStorage

    init(storage: ActivityStorage) {
        self.storage = storage
        id = storage.id
        // The interface stores attributes encoded (they need not be Sendable); they always decode.
        attributes = try! JSONDecoder().decode(Attributes.self, from: storage.attributes)
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        guard pushType == .token else { throw ActivityAuthorizationError.unsupported }
        return Activity(
            storage: ActivityKitControl.start(
                Attributes.self, attributes: try JSONEncoder().encode(attributes), contentState: try JSONEncoder().encode(content.state)))
    }

    public static var activities: [Activity<Attributes>] {
        ActivityKitControl.registry(of: Attributes.self).activities.map(Activity.init(storage:))
    }

    public static var activityUpdates: ActivityUpdates {
        ActivityUpdates(stream: ActivityKitControl.registry(of: Attributes.self).activityStream())
    }

    public static var pushToStartToken: Data? { ActivityKitControl.registry(of: Attributes.self).pushToStartToken }

    public static var pushToStartTokenUpdates: PushTokenUpdates {
        PushTokenUpdates(stream: ActivityKitControl.registry(of: Attributes.self).pushToStartStream())
    }

    public var content: ActivityContent<ContentState> {
        // Stored encoded by the interface from a value of the type: it always decodes.
        ActivityContent(state: try! JSONDecoder().decode(ContentState.self, from: storage.contentState), staleDate: nil)
    }
    public var activityState: ActivityState { storage.activityState }
    public var pushToken: Data? { storage.pushToken }
    public var pushTokenUpdates: PushTokenUpdates { PushTokenUpdates(stream: storage.tokenStream()) }
    public var activityStateUpdates: ActivityStateUpdates { ActivityStateUpdates(stream: storage.stateStream()) }

    public struct ActivityUpdates: AsyncSequence {
        public typealias Element = Activity<Attributes>
        let stream: AsyncStream<ActivityStorage>

        public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<ActivityStorage>.Iterator
            public mutating func next() async -> Activity<Attributes>? {
                await base.next().map(Activity.init(storage:))
            }
        }
    }

    public struct PushTokenUpdates: AsyncSequence {
        public typealias Element = Data
        let stream: AsyncStream<Data>
        public func makeAsyncIterator() -> AsyncStream<Data>.Iterator { stream.makeAsyncIterator() }
    }

    public struct ActivityStateUpdates: AsyncSequence {
        public typealias Element = ActivityState
        let stream: AsyncStream<ActivityState>
        public func makeAsyncIterator() -> AsyncStream<ActivityState>.Iterator { stream.makeAsyncIterator() }
    }
}

public final class ActivityAuthorizationInfo {
    public init() {}

    public var areActivitiesEnabled: Bool { ActivityKitControl.authorization.activitiesEnabled }
    public var frequentPushesEnabled: Bool { ActivityKitControl.authorization.frequentPushesEnabled }
    public var activityEnablementUpdates: AuthorizationUpdates {
        AuthorizationUpdates(stream: ActivityKitControl.authorizationStream(\.activitiesEnabled))
    }
    public var frequentPushEnablementUpdates: AuthorizationUpdates {
        AuthorizationUpdates(stream: ActivityKitControl.authorizationStream(\.frequentPushesEnabled))
    }

    /// Stands for both `ActivityEnablementUpdates` and `FrequentPushEnablementUpdates`.
    public struct AuthorizationUpdates: AsyncSequence {
        public typealias Element = Bool
        let stream: AsyncStream<Bool>
        public func makeAsyncIterator() -> AsyncStream<Bool>.Iterator { stream.makeAsyncIterator() }
    }
}
