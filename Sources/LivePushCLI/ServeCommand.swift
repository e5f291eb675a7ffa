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
        usage: "livepush serve [--config FILE] [--SETTING VALUE ...]",
        discussion: """
            Every setting comes from its flag, else its environment variable, else its key (in brackets) in \
            the JSON file given with --config, else its default. Durations take seconds or a unit: 45s, 30m, \
            8h, 1d. API keys: stored ones (livepush keys create), plus the development keys among the settings below.

            Example, against the local simulator:
              livepush serve --url https://127.0.0.1:2197 \\
                --ca-file ~/.livepush/simulator/ca.pem \\
                --key-file AuthKey.p8 --key-id ABC123DEFG --team-id DEF123GHIJ \\
                --app-key dev-app-key-0123456789 --backend-key dev-backend-key-0123456789

            Routes: GET /openapi.json. Health: GET /health. Metrics: GET /metrics \
            (Prometheus). SIGTERM or SIGINT stops gracefully: no new requests, in-flight \
            pushes finish, claims are released.
            """
    )

    /// The settings' flags (one option per setting, from its declaration in `ServeSetting.all`), read
    /// with the environment and the config file by `ServeSettings.read`.
    @OptionGroup(title: "Settings")
    var settings: ServeOptions

    func run() async throws {
        let settings = try await Self.read(self.settings, environment: ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label in ServerLogHandler(label: label, logLevel: settings.logLevel) }
        let logger = Logger(label: "livepush.serve")
        // Metrics first: the token sources (a keyring's too) and the client create their counters when
        // they are made.
        let metrics = ServerMetrics()
        metrics.bootstrapMetricsSystem()
        let keys = try Self.providerKeys(settings)
        let client = try Self.apnsClient(settings, keys: keys)
        let store: any PushStore
        do {
            store = try await PushStoreOpener.open(NSString(string: settings.database).expandingTildeInPath, logger: Logger(label: "livepush.store"))
        } catch {
            await client.shutdown()
            throw CommandFailure("\(settings.label("database")) \(PushStoreOpener.redacted(settings.database)): \(error.description)")
        }
        logger.info(
            "starting",
            metadata: [
                "database": "\(PushStoreOpener.redacted(settings.database))", "apns": "\(settings.endpoint)",
                "workers": "\(settings.server.workerCount)", "instance": "\(settings.server.instanceID)",
            ])
        // Whether APNs can be reached is checked beside the start, not before it: a server whose APNs host is
        // briefly away still takes requests, and says once, plainly, that its pushes wait.
        let reachability = Task {
            if let warning = await Self.reachabilityWarning(client, endpoint: settings.endpoint) { logger.warning("\(warning)") }
        }
        defer { reachability.cancel() }
        do {
            let server = try LivePushServer(configuration: settings.server, store: store, sender: client, metrics: metrics, logger: logger)
            try await server.runUntilSignalled()
        } catch {
            await client.shutdown()
            await store.close()
            throw CommandFailure("\(error)")
        }
        await client.shutdown()
        await store.close()
    }

    /// What `serve` says at start when its APNs endpoint cannot be reached (nil when it can): the cause
    /// and its fix first, then what that means for the pushes the API accepts meanwhile.
    static func reachabilityWarning(_ client: APNsClient, endpoint: APNsEndpoint) async -> String? {
        do {
            try await client.checkReachable()
            return nil
        } catch {
            // The cause and the fix; the TLS library's own words are in the client's warning just before.
            let cause = error.description.components(separatedBy: " TLS said: ")[0]
            return "cannot reach APNs at \(endpoint): \(cause.hasSuffix(".") ? String(cause.dropLast()) : cause). Until it can, the API "
                + "still accepts pushes (202) but every one fails its attempts and waits in the outbox (GET /v1/activities/{id} shows "
                + "pending[].lastError)"
        }
    }

    /// The settings, or the failure to print: a bad value, or a rule about several settings.
    static func read(_ options: ServeOptions, environment: [String: String]) async throws -> ServeSettings {
        do {
            return try await ServeSettings.read(options: options, environment: environment)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The provider keys `livepush serve` signs with: the one of `--key-file`, or the list of `--keys`.
    enum ProviderKeys {
        case single(ResolvedCredentials)
        case keyring(ProviderKeyring)
    }

    /// `--keys FILE`, or else the one key of `--key-file`/`--key-id`/`--team-id`; both at once is refused.
    static func providerKeys(_ settings: ServeSettings) throws -> ProviderKeys {
        guard let file = settings.keysFile else { return .single(try credentials(settings)) }
        if settings.keyFile != nil || settings.keyID != nil {
            throw ValidationError(
                "give either \(settings.label("keys")) (several keys) or \(settings.label("keyFile"))/\(settings.label("keyId")) "
                    + "(one key), not both")
        }
        do {
            // The ring checks its rules (unique Key IDs, at most 400 topics a key) before the server starts.
            let keys = try ProviderKeysFile.read(path: file, defaultTeamID: settings.teamID)
            try checkAppleIDs(keys, file: "\(settings.label("keys")) \(file)")
            return .keyring(try ProviderKeyring(keys))
        } catch let error as ValidationError {
            throw error
        } catch let error as ProviderKeysFileError {
            throw ValidationError("\(settings.label("keys")): \(error.description)")
        } catch {
            throw ValidationError("\(settings.label("keys")) \(file): \(error)")
        }
    }

    /// The ids of a keys file pass the rules of `--key-id` and `--team-id`: Apple's Key IDs and Team IDs
    /// are 10 uppercase letters or digits (another id would only show at APNs, as a 403).
    static func checkAppleIDs(_ keys: [ScopedProviderKey], file: String) throws {
        for (index, key) in keys.enumerated() {
            if let problem = AppleID.problem(key.credentials.keyID, kind: .keyID, source: "\(file): keys[\(index)].keyId") {
                throw ValidationError(problem)
            }
            if let problem = AppleID.problem(key.credentials.teamID, kind: .teamID, source: "\(file): keys[\(index)].teamId") {
                throw ValidationError(problem)
            }
        }
    }

    /// The APNs client of `livepush serve`: one connection pool per key (Apple binds a connection to the
    /// key of its first request), each push on the pool of the key for its topic and environment.
    static func apnsClient(_ settings: ServeSettings, keys: ProviderKeys) throws -> APNsClient {
        let configuration = settings.server.apnsClientConfiguration(
            endpoint: settings.endpoint, additionalTrustRootFile: settings.caFile, channelManagementEndpoint: settings.manageURL)
        let logger = Logger(label: "livepush.apns")
        switch keys {
        case .single(let credentials):
            return try APNsClient(
                configuration: configuration,
                tokens: try ProviderTokenSource(key: credentials.key, keyID: credentials.keyID, teamID: credentials.teamID),
                logger: logger)
        case .keyring(let keyring):
            return try APNsClient(configuration: configuration, keyring: keyring, logger: logger)
        }
    }

    /// The provider key and ids, each error naming the flag, variable or file key it came from.
    static func credentials(_ settings: ServeSettings) throws -> ResolvedCredentials {
        func given(_ value: String?, _ setting: ServeSetting, _ what: String) throws -> (value: String, source: String) {
            guard let value else {
                throw ValidationError(
                    "missing \(what): pass \(setting.flag) or set the environment variable \(setting.environmentVariable) "
                        + "(or \(setting.key) in the --config file)"
                )
            }
            return (value, settings.label(setting.key))
        }
        return try CredentialOptions.resolve(
            keyFile: given(settings.keyFile, ServeSetting.declared("keyFile"), "the .p8 key file"),
            keyID: given(settings.keyID, ServeSetting.declared("keyId"), "the Key ID"),
            teamID: given(settings.teamID, ServeSetting.declared("teamId"), "the Team ID")
        )
    }
}
