/// What the fault rules decided for one request. `none` when no rule applies.
public struct FaultDecision: Sendable, Hashable {
    /// An error answer to give instead of processing the request.
    public var response: FaultResponse?
    /// Added delay before answering, in milliseconds.
    public var latencyMilliseconds: Int = 0
    /// Close the TCP connection without answering and without GOAWAY.
    public var resetConnection: Bool = false
    /// Send GOAWAY once the connection has served this many streams.
    public var goAway: GoAwayFault?

    public static let none = FaultDecision()

    public var isNone: Bool { self == .none }
}

/// An injected error answer.
public struct FaultResponse: Sendable, Hashable, Codable {
    public var status: Int
    public var reason: String
}

/// An injected GOAWAY: after `afterStreams` streams on a connection, with `reason` as JSON debug data.
public struct GoAwayFault: Sendable, Hashable, Codable {
    public var afterStreams: Int
    public var reason: String
}

/// A registered fault rule and its id.
public struct FaultEntry: Sendable, Hashable, Codable {
    public var id: Int
    public var rule: FaultRule
}
