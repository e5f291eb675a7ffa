import APNsAuth
import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LivePushServer
import Logging
import PushStore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the provider server: register Live Activities and keep them up to date through APNs.",
        discussion: """
            Every setting comes, in this order of precedence, from its flag, its environment variable, the \
            JSON file given with --config (the key in brackets), or its default.

            Storage: --database is a SQLite file (created with its directory) or postgres://user:pass@host/db \
            [database]; $LIVEPUSH_DATABASE.
            APNs: --key-file/--key-id/--team-id ($LIVEPUSH_KEY_FILE, $LIVEPUSH_KEY_ID, $LIVEPUSH_TEAM_ID) \
            [keyFile, keyId, teamId]; --environment ($LIVEPUSH_ENVIRONMENT) [environment] or --url \
            ($LIVEPUSH_URL) [url]; --ca-file ($LIVEPUSH_CA_FILE) [caFile].
            API keys: stored ones (livepush keys create), plus development keys --app-key ($LIVEPUSH_APP_KEY) \
            and --backend-key ($LIVEPUSH_BACKEND_KEY), never read from the config file.
            Other environment variables: LIVEPUSH_HOST, LIVEPUSH_PORT, LIVEPUSH_WORKERS, LIVEPUSH_BATCH_SIZE, \
            LIVEPUSH_HOURLY_BUDGET, LIVEPUSH_FREQUENT_HOURLY_BUDGET, LIVEPUSH_MAX_ACTIVE_DURATION, \
            LIVEPUSH_DEFAULT_EXPIRATION, LIVEPUSH_DEFAULT_DISMISSAL_DELAY, LIVEPUSH_FORGET_AFTER, \
            LIVEPUSH_LIFECYCLE_INTERVAL, LIVEPUSH_WEBHOOK_URL, LIVEPUSH_CONNECTIONS, LIVEPUSH_INSTANCE_ID, \
            LIVEPUSH_LOG_LEVEL. Config-file only: claimLease, pollInterval, retryBaseDelay, retryMaxDelay, historyLimit.
            Durations take seconds or a unit: 45s, 30m, 8h, 1d.

            Example, against the local simulator:
              livepush serve --url https://127.0.0.1:2197 --ca-file ~/.livepush/simulator/ca.pem \\
                --key-file AuthKey.p8 --key-id ABC123DEFG --team-id DEF123GHIJ \\
                --app-key dev-app-key-0123456789 --backend-key dev-backend-key-0123456789
            Routes: GET /openapi.json. Health: GET /health. Metrics: GET /metrics (Prometheus).
            SIGTERM or SIGINT stops gracefully: no new requests, in-flight pushes finish, claims are released.
            """
    )

    @OptionGroup var credentials: CredentialOptions

    @Option(help: "A JSON config file (keys in brackets in the discussion above).")
    var config: String?
    @Option(help: "SQLite file or postgres:// URL. Default: livepush.sqlite. [database] $LIVEPUSH_DATABASE")
    var database: String?
    @Option(help: "Apple's environment: sandbox or production. [environment] $LIVEPUSH_ENVIRONMENT")
    var environment: APNsEnvironment?
    @Option(help: "Any APNs endpoint instead, e.g. https://127.0.0.1:2197 for `livepush simulator`. [url] $LIVEPUSH_URL")
    var url: String?
    @Option(name: .customLong("ca-file"), help: "Extra CA certificate (PEM) to trust, e.g. the simulator's ca.pem. [caFile] $LIVEPUSH_CA_FILE")
    var caFile: String?
    @Option(help: "Address to listen on. Default: \(ServeSettings.defaults.host). [host] $LIVEPUSH_HOST")
    var host: String?
    @Option(help: "HTTP port. Default: \(ServeSettings.defaults.port). [port] $LIVEPUSH_PORT")
    var port: Int?
    @Option(name: .customLong("app-key"), help: "A development API key with scope app. $LIVEPUSH_APP_KEY")
    var appKey: String?
    @Option(name: .customLong("backend-key"), help: "A development API key with scope backend. $LIVEPUSH_BACKEND_KEY")
    var backendKey: String?
    @Option(help: "Delivery workers (0: accept only). Default: \(ServeSettings.defaults.workerCount). [workers] $LIVEPUSH_WORKERS")
    var workers: Int?
    @Option(name: .customLong("batch-size"), help: "Pushes one worker claims at a time. Default: \(ServeSettings.defaults.batchSize). [batchSize] $LIVEPUSH_BATCH_SIZE")
    var batchSize: Int?
    @Option(help: "Most APNs connections. Default: 4. [connections] $LIVEPUSH_CONNECTIONS")
    var connections: Int?
    @Option(name: .customLong("hourly-budget"), help: "Priority-10 pushes per activity per hour before downgrading to 5. Default: \(ServeSettings.defaults.hourlyPriority10Budget). [hourlyBudget] $LIVEPUSH_HOURLY_BUDGET")
    var hourlyBudget: Int?
    @Option(name: .customLong("frequent-hourly-budget"), help: "The same with frequentPushesEnabled. Default: \(ServeSettings.defaults.frequentHourlyPriority10Budget). [frequentHourlyBudget] $LIVEPUSH_FREQUENT_HOURLY_BUDGET")
    var frequentHourlyBudget: Int?
    @Option(name: .customLong("max-active-duration"), help: "End activities active this long with their last state. Default: 8h. [maxActiveDuration] $LIVEPUSH_MAX_ACTIVE_DURATION")
    var maxActiveDuration: String?
    @Option(name: .customLong("default-expiration"), help: "Retry window of a push without expiration. Default: 1h. [defaultExpiration] $LIVEPUSH_DEFAULT_EXPIRATION")
    var defaultExpiration: String?
    @Option(name: .customLong("default-dismissal-delay"), help: "Lock Screen time of an ended activity without dismissal date. Default: 4h. [defaultDismissalDelay] $LIVEPUSH_DEFAULT_DISMISSAL_DELAY")
    var defaultDismissalDelay: String?
    @Option(name: .customLong("forget-after"), help: "Forget ended activities this long after dismissal. Default: 1h. [forgetAfter] $LIVEPUSH_FORGET_AFTER")
    var forgetAfter: String?
    @Option(name: .customLong("lifecycle-interval"), help: "How often the lifecycle sweep runs. Default: 60s. [lifecycleInterval] $LIVEPUSH_LIFECYCLE_INTERVAL")
    var lifecycleInterval: String?
    @Option(name: .customLong("webhook-url"), help: "POST token.invalid and activity.ended events here as JSON. [webhookUrl] $LIVEPUSH_WEBHOOK_URL")
    var webhookURL: String?
    @Option(name: .customLong("instance-id"), help: "Names this process's outbox claims; keep it stable across restarts and unique among instances sharing a database. Default: random. [instanceId] $LIVEPUSH_INSTANCE_ID")
    var instanceID: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. Default: info. [logLevel] $LIVEPUSH_LOG_LEVEL")
    var logLevel: String?

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        var file = ServerConfigurationFile()
        if let config {
            do { file = try ServerConfigurationFile.load(path: NSString(string: config).expandingTildeInPath) } catch {
                throw CommandFailure(error.description)
            }
        }
        let settings = ServeSettings(env: env)

        let level = try settings.logLevel(logLevel, file.logLevel)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "livepush.serve")

        var configuration = ServerConfiguration()
        configuration.host = settings.string(host, "LIVEPUSH_HOST", file.host) ?? configuration.host
        configuration.port = try settings.int(port, "--port", "LIVEPUSH_PORT", file.port) ?? configuration.port
        configuration.workerCount = try settings.int(workers, "--workers", "LIVEPUSH_WORKERS", file.workers) ?? configuration.workerCount
        configuration.batchSize = try settings.int(batchSize, "--batch-size", "LIVEPUSH_BATCH_SIZE", file.batchSize) ?? configuration.batchSize
        configuration.hourlyPriority10Budget = try settings.int(hourlyBudget, "--hourly-budget", "LIVEPUSH_HOURLY_BUDGET", file.hourlyBudget) ?? configuration.hourlyPriority10Budget
        configuration.frequentHourlyPriority10Budget = try settings.int(frequentHourlyBudget, "--frequent-hourly-budget", "LIVEPUSH_FREQUENT_HOURLY_BUDGET", file.frequentHourlyBudget) ?? configuration.frequentHourlyPriority10Budget
        configuration.maximumActiveDuration = try settings.duration(maxActiveDuration, "--max-active-duration", "LIVEPUSH_MAX_ACTIVE_DURATION", file.maxActiveDuration) ?? configuration.maximumActiveDuration
        configuration.defaultExpiration = try settings.duration(defaultExpiration, "--default-expiration", "LIVEPUSH_DEFAULT_EXPIRATION", file.defaultExpiration) ?? configuration.defaultExpiration
        configuration.defaultDismissalDelay = try settings.duration(defaultDismissalDelay, "--default-dismissal-delay", "LIVEPUSH_DEFAULT_DISMISSAL_DELAY", file.defaultDismissalDelay) ?? configuration.defaultDismissalDelay
        configuration.forgetAfter = try settings.duration(forgetAfter, "--forget-after", "LIVEPUSH_FORGET_AFTER", file.forgetAfter) ?? configuration.forgetAfter
        configuration.lifecycleInterval = try settings.duration(lifecycleInterval, "--lifecycle-interval", "LIVEPUSH_LIFECYCLE_INTERVAL", file.lifecycleInterval) ?? configuration.lifecycleInterval
        if let seconds = file.claimLease?.seconds { configuration.claimLease = seconds }
        if let seconds = file.pollInterval?.seconds { configuration.pollInterval = seconds }
        if let seconds = file.retryBaseDelay?.seconds { configuration.retryBaseDelay = seconds }
        if let seconds = file.retryMaxDelay?.seconds { configuration.retryMaximumDelay = seconds }
        if let limit = file.historyLimit { configuration.historyLimit = limit }
        if let text = settings.string(webhookURL, "LIVEPUSH_WEBHOOK_URL", file.webhookUrl) {
            guard let parsed = URL(string: text), parsed.host != nil else {
                throw CommandFailure("--webhook-url '\(text)' is not a URL; expected http(s)://host/path")
            }
            configuration.webhookURL = parsed
        }
        if let id = settings.string(instanceID, "LIVEPUSH_INSTANCE_ID", file.instanceId) { configuration.instanceID = id }
        configuration.appKeys = settings.string(appKey, "LIVEPUSH_APP_KEY", nil).map { [$0] } ?? []
        configuration.backendKeys = settings.string(backendKey, "LIVEPUSH_BACKEND_KEY", nil).map { [$0] } ?? []

        let endpoint = try resolveEndpoint(settings: settings, file: file)
        configuration.environment = endpoint.environment
        do { try configuration.validate() } catch { throw CommandFailure("\(ServeSettings.settingName(error.setting)) \(error.rule)") }

        // An empty variable counts as unset, as for every other LIVEPUSH_* variable.
        func variable(_ name: String) -> String? { env[name].flatMap { $0.isEmpty ? nil : $0 } }
        var credentialEnvironment = env
        credentialEnvironment[CredentialOptions.keyFileVariable] = variable(CredentialOptions.keyFileVariable) ?? file.keyFile
        credentialEnvironment[CredentialOptions.keyIDVariable] = variable(CredentialOptions.keyIDVariable) ?? file.keyId
        credentialEnvironment[CredentialOptions.teamIDVariable] = variable(CredentialOptions.teamIDVariable) ?? file.teamId
        let resolved = try credentials.resolve(environment: credentialEnvironment)
        // Metrics first: the token source and the client create their counters when they are made.
        let metrics = ServerMetrics()
        metrics.bootstrapMetricsSystem()
        let tokens = try ProviderTokenSource(key: resolved.key, keyID: resolved.keyID, teamID: resolved.teamID)
        let caFilePath = settings.string(caFile, "LIVEPUSH_CA_FILE", file.caFile).map { NSString(string: $0).expandingTildeInPath }
        let client = try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: endpoint, additionalTrustRootFile: caFilePath,
                maximumConnections: try settings.int(connections, "--connections", "LIVEPUSH_CONNECTIONS", file.connections) ?? 4,
                retry: APNsRetryPolicy(maximumAttempts: 3, baseDelay: 0.5, maximumDelay: 5)
            ),
            tokens: tokens, logger: Logger(label: "livepush.apns")
        )
        let database = settings.string(database, "LIVEPUSH_DATABASE", file.database) ?? PushStoreOpener.defaultDatabase
        let store: any PushStore
        do {
            store = try await PushStoreOpener.open(NSString(string: database).expandingTildeInPath, logger: Logger(label: "livepush.store"))
        } catch {
            await client.shutdown()
            throw CommandFailure("--database \(PushStoreOpener.redacted(database)): \(error.description)")
        }
        logger.info("starting", metadata: [
            "database": "\(PushStoreOpener.redacted(database))", "apns": "\(endpoint)",
            "workers": "\(configuration.workerCount)", "instance": "\(configuration.instanceID)",
        ])
        let server = try LivePushServer(configuration: configuration, store: store, sender: client, metrics: metrics, logger: logger)
        do {
            try await server.runUntilSignalled()
        } catch {
            await client.shutdown()
            await store.close()
            throw CommandFailure("\(error)")
        }
        await client.shutdown()
        await store.close()
    }

    private func resolveEndpoint(settings: ServeSettings, file: ServerConfigurationFile) throws -> APNsEndpoint {
        let environmentText = environment?.rawValue ?? settings.string(nil, "LIVEPUSH_ENVIRONMENT", file.environment)
        let urlText = settings.string(url, "LIVEPUSH_URL", file.url)
        switch (environmentText, urlText) {
        case (.some, .some):
            throw CommandFailure("give either --environment or --url, not both (check $LIVEPUSH_ENVIRONMENT, $LIVEPUSH_URL and the config file)")
        case (let text?, nil):
            guard let value = APNsEnvironment(rawValue: text) else {
                throw CommandFailure("environment '\(text)' is not sandbox or production")
            }
            return .apple(value)
        case (nil, let text?):
            do { return try APNsEndpoint(url: text) } catch { throw CommandFailure("--url: \(error.description)") }
        case (nil, nil):
            throw CommandFailure("say where to send: --environment sandbox|production, or --url https://HOST:PORT (the local simulator is https://127.0.0.1:2197)")
        }
    }
}

/// Resolves a setting from its flag, its environment variable or the config file, in that order.
struct ServeSettings {
    let env: [String: String]

    func string(_ flag: String?, _ variable: String, _ file: String?) -> String? {
        flag ?? env[variable].flatMap { $0.isEmpty ? nil : $0 } ?? file
    }

    func int(_ flag: Int?, _ name: String, _ variable: String, _ file: Int?) throws -> Int? {
        if let flag { return flag }
        if let text = env[variable], !text.isEmpty {
            guard let value = Int(text) else { throw CommandFailure("$\(variable) '\(text)' is not a whole number (\(name))") }
            return value
        }
        return file
    }

    func duration(_ flag: String?, _ name: String, _ variable: String, _ file: ServerConfigurationFile.FileDuration?) throws -> TimeInterval? {
        if let flag {
            guard let seconds = DurationText.seconds(flag) else { throw CommandFailure("\(name) '\(flag)' is not a duration; accepted: \(DurationText.forms)") }
            return seconds
        }
        if let text = env[variable], !text.isEmpty {
            guard let seconds = DurationText.seconds(text) else { throw CommandFailure("$\(variable) '\(text)' is not a duration; accepted: \(DurationText.forms)") }
            return seconds
        }
        return file?.seconds
    }

    func logLevel(_ flag: String?, _ file: String?) throws -> Logger.Level {
        guard let text = string(flag, "LIVEPUSH_LOG_LEVEL", file) else { return .info }
        guard let level = Logger.Level(rawValue: text) else {
            throw CommandFailure("log level '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
        }
        return level
    }

    /// The server's defaults, which the help text shows (so it cannot drift from them).
    static let defaults = ServerConfiguration()

    /// How a user names a setting: the flag, or the config-file key for settings that have no flag.
    static func settingName(_ setting: String) -> String {
        let fileOnly = [
            "claim-lease": "claimLease", "poll-interval": "pollInterval",
            "retry-base-delay/retry-max-delay": "retryBaseDelay/retryMaxDelay", "history-limit": "historyLimit",
        ]
        if let key = fileOnly[setting] { return "\(key) (config file)" }
        return "--" + setting
    }
}
