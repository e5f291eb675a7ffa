import APNsAuth
import APNsCore
import APNsSimulator
import ArgumentParser
import Dispatch
import Foundation
import Logging

struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator",
        abstract: "Run a local APNs (HTTP/2 + TLS) with simulated devices and a control API.",
        discussion: """
            The APNs endpoint answers POST /3/device/<token> as Apple's service does. Clients trust \
            DATA_DIR/ca.pem (made on first start, reused later). Provider keys are trusted from \
            --key-file/--key-id/--team-id (or LIVEPUSH_KEY_FILE/_KEY_ID/_TEAM_ID) and through the control API. \
            Runs until SIGINT or SIGTERM, then sends GOAWAY Shutdown and stops.
            Certificate-based connections: the endpoint asks for a client certificate (optional) and trusts \
            those DATA_DIR/ca.pem signed; `livepush simulator certificate --bundle-id ID [--environment E] \
            [--out DIR]` issues one. Such a connection is authenticated by the certificate: alert and background \
            pushes to its bundle id are accepted, Live Activity pushes get 400 TopicDisallowed.
            """,
        subcommands: [SimulatorCertificateCommand.self]
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The APNs endpoint's port (0 picks a free one).") var port = APNsEnvironment.alternatePort
    @Option(name: .customLong("control-port"), help: "The control API's port (plain HTTP).") var controlPort = ControlServer.defaultPort
    @Option(name: .customLong("manage-port"), help: "The broadcast channel management API's port (TLS, as the APNs port; 0 picks a free one).")
    var managePort = APNsEnvironment.sandbox.channelManagementPort
    @Option(name: .customLong("channel-limit"), help: "Channels per app and environment before 400 CannotCreateChannelConfig.")
    var channelLimit = 10_000
    @Option(name: .customLong("channel-create-status"), help: "The status of a created channel: 201 (documented) or 200 (reported).")
    var channelCreateStatus = 201
    @Option(
        name: .customLong("broadcast-disabled"),
        help: "A bundle id without the broadcast capability: its channel and broadcast requests get 400 FeatureNotEnabled (repeatable).")
    var broadcastDisabled: [String] = []
    @Flag(
        name: .customLong("broadcast-push-type-exact"),
        help: "Accept only 'liveactivity' or 'LiveActivity' as a broadcast's push type (default: any case).")
    var broadcastPushTypeExact = false
    @Option(
        name: .customLong("data-dir"), help: "Where the CA and server certificate live. Default: $LIVEPUSH_SIMULATOR_DIR or ~/.livepush/simulator.")
    var dataDirectory: String?
    @Option(help: "The environment when :authority names neither Apple host: sandbox or production.")
    var environment: String = APNsEnvironment.sandbox.rawValue
    @Flag(name: .customLong("accept-unknown-tokens"), help: "Answer 200 for tokens no simulated device owns (else BadDeviceToken).")
    var acceptUnknownTokens = false
    @Flag(
        name: .customLong("allow-remote-webhooks"),
        help: "Let a device's webhookURL point to other machines (else only localhost, 127.0.0.0/8 and [::1]).")
    var allowRemoteWebhooks = false
    @Flag(name: .customLong("no-rate-limit"), help: "Never answer 429 TooManyRequests for many pushes in a row to one token (for load tests).")
    var noRateLimit = false
    @Option(name: .customLong("push-log-limit"), help: "How many exchanges the push log (GET /v1/pushes) keeps, newest last (1 to 10,000,000).")
    var pushLogLimit = 2000
    @Option(name: .customLong("max-concurrent-streams"), help: "SETTINGS_MAX_CONCURRENT_STREAMS after a connection's first accepted push.")
    var maxConcurrentStreams = 1000
    @Option(name: .customLong("certificate-name"), help: "An extra host name or IP address for the server certificate (repeatable).")
    var certificateNames: [String] = []
    @Option(name: .customLong("idle-timeout"), help: "Seconds without frames before GOAWAY IdleTimeout (0: never).")
    var idleTimeout: Double = 3600

    @Option(
        name: .customLong("environment-key-reason"),
        help:
            "The reason for a key of the other environment: BadEnvironmentKeyIdInToken (documented) or BadEnvironmentKeyInToken (seen in the field).")
    var environmentKeyReason = APNsReason.badEnvironmentKeyIDInToken.rawValue

    @Option(
        name: .customLong("push-to-start-budget"),
        help: "Starts by push-to-start one app on one device may apply per --push-to-start-window (0: no budget; Apple publishes no number).")
    var pushToStartBudget = 10
    @Option(name: .customLong("push-to-start-window"), help: "The window of --push-to-start-budget, in seconds.")
    var pushToStartWindow: Double = 3600
    @Flag(
        name: .customLong("team-keys-share-connections"),
        help: "Let two team-scoped keys of one team share a connection (default: a connection is bound to its first key, UnrelatedKeyIdInToken).")
    var teamKeysShareConnections = false

    @Option(
        name: .customLong("clock-rate"),
        help:
            "How fast the devices' time runs: 60 plays an hour of stale dates, the 8-hour end and the 12-hour dismissal in a minute (0.001 to 86400; JWT checks keep real time). POST /v1/clock {\"advanceSeconds\": N} moves it forward."
    )
    var clockRate: Double = 1

    @OptionGroup var credentials: CredentialOptions

    @Option(name: .customLong("fault-status"), help: "Answer this 4xx/5xx status instead of processing (with --fault-reason).")
    var faultStatus: Int?
    @Option(name: .customLong("fault-reason"), help: "The reason for --fault-status (alone: a known APNs reason, its status follows).")
    var faultReason: String?
    @Option(name: .customLong("fault-share"), help: "Share of requests (0...1) --fault-status and --fault-latency-ms apply to.")
    var faultShare: Double = 1
    @Option(name: .customLong("fault-latency-ms"), help: "Delay answers by this many milliseconds.")
    var faultLatencyMilliseconds: Int?
    @Option(name: .customLong("goaway-after"), help: "Send GOAWAY Shutdown after this many streams on each connection.")
    var goAwayAfter: Int?
    @Option(name: .customLong("reset-share"), help: "Share of requests (0...1) answered by dropping the TCP connection.")
    var resetShare: Double?

    func validate() throws {
        guard APNsEnvironment(rawValue: environment) != nil else {
            throw ValidationError("--environment '\(environment)' is not sandbox or production")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is outside 0...65535") }
        guard (0...65535).contains(controlPort) else { throw ValidationError("--control-port \(controlPort) is outside 0...65535") }
        guard (0...65535).contains(managePort) else { throw ValidationError("--manage-port \(managePort) is outside 0...65535") }
        guard (1...10_000_000).contains(pushLogLimit) else {
            throw ValidationError("--push-log-limit \(pushLogLimit) is outside 1...10000000")
        }
        guard channelLimit >= 0 else { throw ValidationError("--channel-limit \(channelLimit) must be 0 or more") }
        guard [200, 201].contains(channelCreateStatus) else {
            throw ValidationError("--channel-create-status \(channelCreateStatus) is neither 201 (documented) nor 200 (reported)")
        }
        guard maxConcurrentStreams >= 1 else {
            throw ValidationError("--max-concurrent-streams \(maxConcurrentStreams) must be 1 or more")
        }
        guard ["BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken"].contains(environmentKeyReason) else {
            throw ValidationError(
                "--environment-key-reason '\(environmentKeyReason)' is neither BadEnvironmentKeyIdInToken nor BadEnvironmentKeyInToken")
        }
        guard pushToStartBudget >= 0 else { throw ValidationError("--push-to-start-budget \(pushToStartBudget) must be 0 or more starts") }
        guard pushToStartWindow > 0, pushToStartWindow.isFinite else {
            throw ValidationError("--push-to-start-window \(pushToStartWindow) must be more than 0 seconds")
        }
        do {
            _ = try ClockRate(clockRate)
        } catch {
            throw ValidationError("--clock-rate: \(error.description)")
        }
        guard idleTimeout >= 0, idleTimeout.isFinite else { throw ValidationError("--idle-timeout \(idleTimeout) must be 0 or more seconds") }
        for rule in try faultRules() {
            do {
                _ = try FaultInjector.validate(rule)
            } catch {
                throw ValidationError("fault flags: \(error.description)")
            }
        }
    }

    /// The fault rules the flags describe.
    func faultRules() throws -> [FaultRule] {
        var rules: [FaultRule] = []
        if faultStatus != nil || faultReason != nil {
            rules.append(FaultRule(status: faultStatus, reason: faultReason, share: faultShare))
        }
        if let faultLatencyMilliseconds {
            rules.append(FaultRule(share: faultShare, latencyMilliseconds: faultLatencyMilliseconds))
        }
        if let goAwayAfter { rules.append(FaultRule(goAwayAfterStreams: goAwayAfter)) }
        if let resetShare { rules.append(FaultRule(share: resetShare, resetConnection: true)) }
        return rules
    }

    func run() async throws {
        var configuration = SimulatorConfiguration()
        configuration.endpoint.host = host
        configuration.endpoint.port = port
        configuration.endpoint.environment = APNsEnvironment(rawValue: environment) ?? .sandbox
        configuration.endpoint.maxConcurrentStreams = maxConcurrentStreams
        configuration.endpoint.idleTimeout = idleTimeout > 0 ? idleTimeout : nil
        configuration.endpoint.badEnvironmentKeyReason = environmentKeyReason
        configuration.endpoint.teamKeysShareConnections = teamKeysShareConnections
        configuration.deviceRules.pushToStartBudget =
            pushToStartBudget > 0 ? RequestRateLimit(maximumPushes: pushToStartBudget, window: pushToStartWindow) : nil
        configuration.endpoint.managePort = managePort
        configuration.endpoint.broadcast.maximumChannelsPerApp = channelLimit
        configuration.endpoint.broadcast.createStatus = channelCreateStatus
        configuration.endpoint.broadcast.disabledBundleIDs = Set(broadcastDisabled)
        configuration.endpoint.broadcast.pushTypeCaseInsensitive = !broadcastPushTypeExact
        configuration.controlHost = host
        configuration.controlPort = controlPort
        if let dataDirectory { configuration.dataDirectory = NSString(string: dataDirectory).expandingTildeInPath }
        configuration.extraCertificateNames = certificateNames
        configuration.deviceRules.acceptUnknownTokens = acceptUnknownTokens
        configuration.deviceRules.allowRemoteWebhooks = allowRemoteWebhooks
        if noRateLimit { configuration.deviceRules.tooManyRequests = nil }
        configuration.deviceRules.pushLogLimit = pushLogLimit
        configuration.clockRate = (try? ClockRate(clockRate)) ?? .realTime

        let keys = TrustedKeys()
        var trusted: ProviderCredentials?
        if credentials.isProvided {
            let resolved = try credentials.resolve()
            keys.register(keyID: resolved.keyID, teamID: resolved.teamID, publicKey: resolved.key.privateKey.publicKey)
            trusted = resolved
        }

        // A taken port fails here, before the data directory and its certificates are written.
        do {
            try await ListenCheck.check([(host, port, "--port"), (host, managePort, "--manage-port"), (host, controlPort, "--control-port")])
        } catch {
            throw CommandFailure(error.description)
        }
        let simulator: Simulator
        do {
            simulator = try Simulator(configuration: configuration, keys: keys)
        } catch {
            throw CommandFailure(error.description)
        }
        for rule in try faultRules() {
            do {
                try simulator.faults.add(rule)
            } catch {
                throw CommandFailure("fault flags: \(error.description)")
            }
        }
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        do {
            try await simulator.start()
        } catch {
            throw CommandFailure("\(error)")
        }
        printBanner(simulator, trusted: trusted)
        let received = await signals.wait()
        // Unbuffered, so the lines show at once through a file or a pipe; the simulator serves on when
        // nobody reads them.
        TerminalOutput.line("received \(received == SIGINT ? "SIGINT" : "SIGTERM"), shutting down (GOAWAY Shutdown)…")
        await simulator.shutdown()
    }

    private func printBanner(_ simulator: Simulator, trusted: ProviderCredentials?) {
        let apnsPort = simulator.apnsPort ?? port
        let controlPort = simulator.controlPort ?? self.controlPort
        let managePort = simulator.managePort ?? self.managePort
        let urlHost = host == "127.0.0.1" || host == "::1" || host == "0.0.0.0" ? "localhost" : host
        let endpoint = "https://\(urlHost):\(apnsPort)"
        let control = "http://\(host.contains(":") ? "[\(host)]" : host):\(controlPort)"
        TerminalOutput.line(
            """
            livepush simulator is running (\(simulator.configuration.endpoint.environment.rawValue))
              APNs endpoint:  \(endpoint)   (HTTP/2 over TLS, ALPN h2)
              Channels API:   https://\(urlHost):\(managePort)   (broadcast channel management; broadcasts go to the APNs endpoint)
              Control API:    \(control)
              Dashboard:      \(control)\(DashboardRoutes.path)   (open in a browser)
              CA certificate: \(simulator.caCertificatePath)   (trust this in your client)
              Trusted key:    \(trusted.map { "\($0.keyID) (team \($0.teamID))" } ?? "none yet; pass --key-file/--key-id/--team-id or register one via the control API")
              Device clock:   ×\(simulator.configuration.clockRate)   (GET /v1/clock; POST /v1/clock {"advanceSeconds": 3600} moves it forward)

            Try it:
              curl -v --http2 --cacert '\(simulator.caCertificatePath)' \\
                --header "authorization: bearer $(\(jwtCommand(trusted: trusted != nil)))" \\
                --header "apns-push-type: liveactivity" \\
                --header "apns-topic: com.example.app.push-type.liveactivity" \\
                --header "apns-priority: 10" \\
                --data '{"aps":{"timestamp":'$(date +%s)',"event":"update","content-state":{}}}' \\
                \(endpoint)/3/device/\(String(repeating: "00", count: 32))

            Press Ctrl-C to stop.
            """)
    }

    /// The `livepush jwt` invocation that signs for the trusted key (flags as given; none when the
    /// environment variables supplied them).
    private func jwtCommand(trusted: Bool) -> String {
        guard trusted else { return "livepush jwt --key-file KEY.p8 --key-id KEY_ID --team-id TEAM_ID" }
        var command = "livepush jwt"
        if let keyFile = credentials.keyFile { command += " --key-file '\(keyFile)'" }
        if let keyID = credentials.keyID { command += " --key-id \(keyID)" }
        if let teamID = credentials.teamID { command += " --team-id \(teamID)" }
        return command
    }
}

/// Waits for the first of some POSIX signals (the default handlers are replaced while it lives).
final class SignalWaiter {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        self.sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The first signal received.
    func wait() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
