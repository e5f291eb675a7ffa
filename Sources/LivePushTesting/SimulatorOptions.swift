import APNsCore
import APNsSimulator
import Logging

/// How ``withSimulator(_:isolation:_:)`` sets up the local APNs: the app it knows, its rules, its clock.
public struct SimulatorOptions: Sendable {
    /// The app's bundle id: registered with the simulator, the topic of its pushes.
    public var bundleID = "com.example.rangers"
    /// The `ActivityAttributes` types the app declares (push-to-start needs them); empty: the app is
    /// not registered, and any bundle id is accepted for devices.
    public var attributesTypes = ["AdventureAttributes"]
    /// Accept pushes to tokens no simulated iPhone holds (as Apple does for tokens it does not know
    /// yet); off, they are refused with `BadDeviceToken` like a token from nowhere.
    public var acceptUnknownTokens = false
    /// The simulator's time (JWT `iat` checks, the 8-hour limit, stale and dismissal dates): a
    /// `ManualWallClock` lets a test move it; nil is the system's clock.
    public var clock: (any WallClock)?
    /// Seeds the fault injector, so a test that injects faults sees the same ones every run.
    public var faultSeed: UInt64? = 7
    /// Whether the simulated iPhones apply Apple's 429 `TooManyRequests` to a token pushed too often.
    public var appliesTooManyRequests = true
    /// The simulator's log level (its logs go to the test's output).
    public var logLevel: Logger.Level = .critical
    /// Anything else of the simulator's configuration, applied last.
    public var configure: @Sendable (inout SimulatorConfiguration) -> Void = { _ in }

    public init(
        bundleID: String = "com.example.rangers", attributesTypes: [String] = ["AdventureAttributes"],
        acceptUnknownTokens: Bool = false, clock: (any WallClock)? = nil,
        configure: @escaping @Sendable (inout SimulatorConfiguration) -> Void = { _ in }
    ) {
        self.bundleID = bundleID
        self.attributesTypes = attributesTypes
        self.acceptUnknownTokens = acceptUnknownTokens
        self.clock = clock
        self.configure = configure
    }
}
