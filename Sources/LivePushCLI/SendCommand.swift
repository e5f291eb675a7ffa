import APNsAuth
import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LiveActivity
import Logging

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one Live Activity push (start, update or end) to APNs or the local simulator.",
        discussion: """
            Dates (--stale-date, --dismissal-date, --expiration, --timestamp) take Unix seconds, ISO 8601, \
            or a time relative to now such as +2h, +30m, -5m.
            Example, against the local simulator:
              livepush send --url https://127.0.0.1:2197 --ca-file ~/.livepush/simulator/ca.pem \\
                --token $TOKEN --bundle-id com.example.apple-samplecode.Emoji-Rangers \\
                --content-state '{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}'
            """
    )

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var target: SendTargetOptions
    @OptionGroup var content: PayloadOptions

    @Option(help: "apns-priority: 10 (now, counts against the activity's budget) or 5 (power-aware).")
    var priority: Int = 10
    @Option(help: "apns-expiration: 0 (try once), Unix seconds, ISO 8601 or +30m. Default: APNs' policy.")
    var expiration: String?
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
    @Option(help: "The deadline of one request, in seconds.")
    var timeout: Double = 30
    @Flag(name: .long, help: "Log the client's connection events to stderr.")
    var verbose = false

    func validate() throws {
        guard [5, 10].contains(priority) else {
            throw ValidationError("--priority \(priority) is not allowed for Live Activities; use 5 or 10")
        }
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard (1...10_000).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 10000") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    func run() async throws {
        let now = Date()
        let payload = try content.makePayload(now: now)
        let push = try makePush(payload: payload, now: now)
        let request: APNsRequest
        do {
            request = try push.makeRequest()
        } catch {
            throw CommandFailure(error.description)
        }
        let endpoint = try target.endpoint()

        if dryRun {
            let jwtNote = credentials.isProvided ? "bearer <provider token, signed when sent>" : "(none: no credentials given)"
            print(RequestPrinter.describe(request, endpoint: endpoint, authorization: jwtNote))
            return
        }

        let resolved = try credentials.resolve()
        let tokens = try ProviderTokenSource(key: resolved.key, keyID: resolved.keyID, teamID: resolved.teamID)
        var logger = Logger(label: "livepush.send")
        logger.logLevel = verbose ? .debug : .error
        let client = try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: endpoint,
                additionalTrustRootFile: target.caFile.map { NSString(string: $0).expandingTildeInPath },
                maximumConnections: max(1, min(target.connections, concurrency)),
                requestTimeout: .milliseconds(Int(timeout * 1000)),
                retry: count > 1 ? .none : APNsRetryPolicy()
            ),
            tokens: tokens,
            logger: logger
        )
        defer { Task { await client.shutdown() } }

        if count == 1 {
            let outcome = await client.deliver(request)
            await client.shutdown()
            try OutcomePrinter.report(outcome)
        } else {
            let report = await LoadRunner(client: client, request: request, count: count, concurrency: concurrency).run()
            await client.shutdown()
            print(report.summary)
            if report.failures > 0 { throw ExitCode(1) }
        }
    }

    private func makePush(payload: LiveActivityPayload, now: Date) throws -> LiveActivityPush {
        let expirationValue: APNsExpiration
        switch expiration {
        case nil: expirationValue = .serverDefault
        case "0": expirationValue = .immediately
        case let text?:
            do { expirationValue = .at(try DateInput.parse(text, now: now)) } catch {
                throw CommandFailure("--expiration: \(error.description)")
            }
        }
        var uuid: UUID?
        if let apnsID {
            guard let parsed = APNsID.parse(apnsID) else {
                throw CommandFailure("--apns-id '\(apnsID)' is not a UUID; expected 8-4-4-4-12 hex digits, e.g. \(UUID().uuidString.lowercased())")
            }
            uuid = parsed
        }
        return LiveActivityPush(
            token: target.token, bundleID: target.bundleID, payload: payload,
            priority: APNsPriority(rawValue: priority), expiration: expirationValue,
            collapseID: collapseID, apnsID: uuid
        )
    }
}
