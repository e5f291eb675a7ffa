import APNsAuth
import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import NIOCore
import NIOPosix

/// The Emoji Rangers app these tests push to: its bundle id, the simulator it runs on, its activities and
/// its updates.
enum Rangers {
    static let bundleID = "com.example.apple-samplecode.Emoji-Rangers"

    /// A simulator for the app: not registered (any bundle id is accepted for devices and channels), and
    /// without Apple's 429 for a token pushed too often (the tests push one token many times).
    static func simulator(
        acceptUnknownTokens: Bool = false, configure: @escaping @Sendable (inout SimulatorConfiguration) -> Void = { _ in }
    ) -> SimulatorOptions {
        var options = SimulatorOptions(bundleID: bundleID, attributesTypes: [], acceptUnknownTokens: acceptUnknownTokens, configure: configure)
        options.appliesTooManyRequests = false
        return options
    }

    /// Runs `body` with a client of one connection (reconnect-only retries, 30 s deadlines) to a simulator
    /// that allows 4 streams at once, answers each after 300 ms and sends GOAWAY after every stream: when a
    /// GOAWAY comes, more requests wait in swift-nio-http2's buffer for the stream limit. A connection
    /// processes one to four requests (those the server has read when it says GOAWAY; fewer on a busy
    /// machine), so a request may be refused several times before its turn.
    static func withGoAwaysUnderAFullStreamLimit<Result>(_ body: (APNsClient) async throws -> Result) async throws -> Result {
        let options = simulator(acceptUnknownTokens: true) {
            $0.endpoint.initialMaxConcurrentStreams = 4
            $0.endpoint.maxConcurrentStreams = 4
        }
        return try await withSimulator(options) { apns in
            _ = try apns.simulator.faults.add(FaultRule(share: 1, latencyMilliseconds: 300, goAwayAfterStreams: 1))
            let configuration = apns.clientConfiguration(
                maximumConnections: 1, connectTimeout: .seconds(30), requestTimeout: .seconds(30), retry: .reconnectOnly(maximumAttempts: 20))
            return try await apns.withClient(configuration, body)
        }
    }

    /// A Live Activity update of the app's content state to `token`.
    static func update(token: String, health: Double, text: String, at timestamp: Date = Date()) throws -> APNsRequest {
        let payload = LiveActivityPayload.update(
            contentState: ["currentHealthLevel": .number(health), "eventDescription": .string(text)] as JSONValue,
            timestamp: timestamp
        )
        return try LiveActivityPush(token: token, bundleID: bundleID, payload: payload, priority: .conservesPower).makeRequest()
    }
}

extension SimulatedAPNs {
    /// A new simulated iPhone running an Emoji Rangers activity.
    func startRangersActivity(health: Double = 1.0) async throws -> SimulatedActivity {
        try await startActivity(
            attributesType: "AdventureAttributes", attributes: ["hero": "Power Panda"],
            contentState: ["currentHealthLevel": .number(health), "eventDescription": "Adventure has begun!"]
        )
    }

    /// The client configuration of ``clientConfiguration(maximumConnections:connectTimeout:requestTimeout:retry:)``
    /// without the simulator's CA: its certificate is then untrusted.
    func untrustingClientConfiguration() -> APNsClientConfiguration {
        var configuration = clientConfiguration()
        configuration.additionalTrustRootFile = nil
        configuration.trustOnlyAdditionalRoots = false
        return configuration
    }
}

/// Runs `body` with a TCP listener on a loopback port the kernel picks that accepts connections and never
/// answers, and closes it afterwards, whatever `body` does. A port read inside and used after the scope
/// is one where nothing listens (a refused connection).
func withSilentListener<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: (_ port: Int) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    } stop: { listener in
        try? await listener.close()
    } _: { listener in
        try await body(listener.localAddress!.port!)
    }
}

/// Runs `body` with an event loop group of its own (`threads` threads), and shuts it down afterwards,
/// whatever `body` does.
func withEventLoopGroup<Result>(
    threads: Int = 1, isolation: isolated (any Actor)? = #isolation, _ body: (MultiThreadedEventLoopGroup) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        MultiThreadedEventLoopGroup(numberOfThreads: threads)
    } stop: { group in
        try? await group.shutdownGracefully()
    } _: { group in
        try await body(group)
    }
}

/// A token source that hands out a stale token first, to exercise ExpiredProviderToken.
final class StaleFirstTokens: ProviderTokenProviding, @unchecked Sendable {
    private let lock = NSLock()
    private var jwt: String
    private let fresh: String
    private(set) var renewals = 0

    /// Tokens signed with the key `apns` trusts, the first two hours old.
    convenience init(_ apns: SimulatedAPNs) {
        self.init(key: apns.signingKey, keyID: apns.keyID, teamID: apns.teamID)
    }

    init(key: APNsSigningKey, keyID: String, teamID: String) {
        jwt = ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: Date().addingTimeInterval(-2 * 3600)).jwt
        fresh = ProviderToken.sign(key: key, keyID: keyID, teamID: teamID, issuedAt: Date()).jwt
    }

    func currentJWT() -> String { lock.withLock { jwt } }

    func renewJWT(rejected: String) -> String {
        lock.withLock {
            if rejected == jwt, jwt != fresh {
                renewals += 1
                jwt = fresh
            }
            return jwt
        }
    }
}
