import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LiveActivity

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one Live Activity push (start, update or end) to APNs or the local simulator.",
        discussion: """
            Dates (--stale-date, --dismissal-date, --expiration, --timestamp) take Unix seconds, ISO 8601, \
            or a time relative to now such as +2h, +30m, -5m.
            Authentication: a .p8 key (--key-file, --key-id, --team-id) signs a provider token; or a provider \
            certificate (--cert-file, --cert-key-file) authenticates the connection. Live Activity pushes need \
            the .p8 key: APNs refuses them over certificates (400 TopicDisallowed). --push-type alert sends a \
            plain alert (--alert-title, --alert-body, --sound) to the bundle id, which a certificate may send.
            Example, against the local simulator:
              livepush send --url https://127.0.0.1:2197 --ca-file ~/.livepush/simulator/ca.pem \\
                --token $TOKEN --bundle-id com.example.apple-samplecode.Emoji-Rangers \\
                --content-state '{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}'
            """
    )

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var certificate: CertificateOptions
    @OptionGroup var target: SendTargetOptions
    @Option(name: .customLong("push-type"), help: "liveactivity, or alert: a plain alert (--alert-title, --alert-body, --sound) to the bundle id.")
    var pushType: SendPushType = .liveactivity
    @OptionGroup var content: PayloadOptions

    @Option(help: "apns-priority: 10 (now, counts against the activity's budget) or 5 (power-aware); alert and --channel also 1.")
    var priority: Int = 10
    @Option(
        help:
            "apns-expiration: 0 (try once), Unix seconds, ISO 8601 or +30m. Default: APNs' policy; with --channel 0 (required by channels without storage)."
    )
    var expiration: String?
    @Option(name: .customLong("request-id"), help: "--channel: apns-request-id, a UUID echoed back (default: APNs generates one).")
    var requestID: String?
    @Option(name: .customLong("collapse-id"), help: "apns-collapse-id (at most 64 bytes).")
    var collapseID: String?
    @Option(name: .customLong("apns-id"), help: "apns-id, a UUID (default: APNs generates one).")
    var apnsID: String?

    @Flag(help: "Print the exact request (headers and payload) without sending it.")
    var dryRun = false
    @Option(help: "Send this many copies (a load test); reports the rate and latency percentiles.")
    var count: Int = 1
    @Option(help: "With --count: how many requests are in flight at once.")
    var concurrency: Int = 1
    @OptionGroup var clientOptions: ClientOptions

    func validate() throws {
        if target.channel != nil {
            try validateBroadcast()
            return
        }
        if requestID != nil { throw ValidationError("--request-id is for broadcasts (--channel); a push to a token takes --apns-id") }
        switch pushType {
        case .liveactivity:
            guard [5, 10].contains(priority) else {
                throw ValidationError("--priority \(priority) is not allowed for Live Activities; use 5 or 10")
            }
        case .alert:
            guard [1, 5, 10].contains(priority) else { throw ValidationError("--priority \(priority) is not 10, 5 or 1") }
            try AlertPush.validate(content)
        }
        try certificate.validate(against: credentials)
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard (1...10_000).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 10000") }
    }

    func run() async throws {
        if target.channel != nil {
            try await runBroadcast()
            return
        }
        let request = try makeRequest(now: Date())
        let endpoint = try target.endpoint()

        if dryRun {
            let note = ClientAuthentication.dryRunNote(credentials: credentials, certificate: certificate)
            print(RequestPrinter.describe(request, endpoint: endpoint, authorization: note))
            return
        }

        let authentication = try ClientAuthentication(credentials: credentials, certificate: certificate)
        let client = try OutcomePrinter.client {
            try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: endpoint,
                    additionalTrustRootFile: target.caFile.map { NSString(string: $0).expandingTildeInPath },
                    clientCertificate: authentication.certificate,
                    maximumConnections: max(1, min(target.connections, concurrency)),
                    requestTimeout: clientOptions.requestTimeout,
                    retry: count > 1 ? .none : APNsRetryPolicy()
                ),
                tokens: authentication.tokens,
                group: APNsEventLoop.shared,
                logger: clientOptions.logger(label: "livepush.send")
            )
        }
        defer { Task { await client.shutdown() } }

        if count == 1 {
            let outcome = await client.deliver(request)
            await client.shutdown()
            try OutcomePrinter.report(outcome, remedy: certificateRemedy(outcome))
        } else {
            // The sending tasks run on the connections' event loop: no thread hop per push.
            let runner = LoadRunner(client: client, request: request, count: count, concurrency: concurrency)
            let report = await withTaskExecutorPreference(client.taskExecutor) { await runner.run() }
            await client.shutdown()
            print(report.summary)
            if report.failures > 0 { throw ExitCode(1) }
        }
    }

    /// The request the flags describe: a Live Activity push, or with `--push-type alert` a plain alert.
    func makeRequest(now: Date) throws -> APNsRequest {
        switch pushType {
        case .liveactivity:
            let push = try makePush(payload: try content.makePayload(now: now), now: now)
            do {
                return try push.makeRequest()
            } catch {
                throw CommandFailure(error.description)
            }
        case .alert:
            return try AlertPush.request(
                token: target.tokenValue, bundleID: target.bundleID, content: content,
                priority: APNsPriority(rawValue: priority), expiration: try expirationValue(now: now),
                collapseID: collapseID, apnsID: try apnsUUID()
            )
        }
    }

    /// What to do when a certificate connection fails, where the generic advice would mislead: a Live
    /// Activity push refused with TopicDisallowed (it needs a .p8 key), or the server refusing the
    /// certificate in the TLS handshake (a TLS alert about it).
    func certificateRemedy(_ outcome: APNsDeliveryOutcome) -> String? {
        guard certificate.isProvided else { return nil }
        switch outcome.result {
        case .success(let response) where pushType == .liveactivity && response.reason == .topicDisallowed:
            return "Live Activity pushes need token-based authentication: a .p8 key (--key-file, --key-id, --team-id) "
                + "instead of --cert-file/--cert-key-file. APNs refuses them over certificate connections."
        case .failure(.tlsFailed(_, let detail)) where detail.contains("ALERT_") && (detail.contains("_CA") || detail.contains("CERTIFICATE")):
            return "the server refused the client certificate; use one its CA signed (for the local simulator: "
                + "`livepush simulator certificate --bundle-id ID` with the simulator's --data-dir)"
        default:
            return nil
        }
    }

    private func makePush(payload: LiveActivityPayload, now: Date) throws -> LiveActivityPush {
        LiveActivityPush(
            token: target.tokenValue, bundleID: target.bundleID, payload: payload,
            priority: APNsPriority(rawValue: priority), expiration: try expirationValue(now: now),
            collapseID: collapseID, apnsID: try apnsUUID()
        )
    }

    func expirationValue(now: Date) throws -> APNsExpiration {
        let expirationValue: APNsExpiration
        switch expiration {
        case nil: expirationValue = .serverDefault
        case "0": expirationValue = .immediately
        case let text?:
            do { expirationValue = .at(try DateInput.parse(text, now: now)) } catch {
                throw CommandFailure("--expiration: \(error.description)")
            }
        }
        return expirationValue
    }

    private func apnsUUID() throws -> UUID? {
        guard let apnsID else { return nil }
        guard let parsed = APNsID.parse(apnsID) else {
            throw CommandFailure("--apns-id '\(apnsID)' is not a UUID; expected 8-4-4-4-12 hex digits, e.g. \(UUID().lowercased)")
        }
        return parsed
    }
}
