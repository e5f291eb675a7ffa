import APNsClient
import Foundation
import LivePushServer
import LivePushTesting
import Logging
import Testing

/// `livepush serve`'s settings: one declaration each, read from flag, else environment, else the JSON file.
@Suite struct ServeSettingsTests {
    /// A value each setting accepts, as a flag or variable would give it.
    static let samples: [String: String] = [
        "database": "x.sqlite", "environment": "production", "url": "https://127.0.0.1:2197", "manageUrl": "https://127.0.0.1:2195",
        "caFile": "/tmp/ca.pem",
        "keyFile": "/tmp/AuthKey.p8", "keyId": "ABC123DEFG", "teamId": "DEF123GHIJ", "host": "0.0.0.0", "port": "9091",
        "appKey": "dev-app-key-0123456789", "backendKey": "dev-backend-key-0123456789", "workers": "3", "batchSize": "7",
        "connections": "2", "streamsPerConnection": "50", "hourlyBudget": "5", "frequentHourlyBudget": "50", "maxActiveDuration": "2h",
        "defaultExpiration": "30m", "defaultDismissalDelay": "90", "forgetAfter": "1d", "lifecycleInterval": "45s",
        "claimLease": "2m", "pollInterval": "0.5", "retryBaseDelay": "2s", "retryMaxDelay": "30s", "historyLimit": "20",
        "requestHeaderTimeout": "10s", "requestBodyTimeout": "2m", "shutdownTimeout": "45s",
        "webhookUrl": "https://example.com/hook", "webhookSecret": "0123456789abcdef0123456789abcdef", "webhookTimeout": "5s",
        "webhookMaxAge": "12h", "instanceId": "livepush-a", "logLevel": "debug",
        "appTokenSecret": "0123456789abcdef0123456789abcdef", "appTokenLifetime": "2h", "installationTokenLifetime": "7d", "appRateLimit": "60",
        "appRateBurst": "10", "backendRateLimit": "6000", "backendRateBurst": "100", "operatorRateLimit": "300", "operatorRateBurst": "30",
        "installationRateLimit": "3000", "installationRateBurst": "300", "addressFailureLimit": "30", "addressFailureBurst": "20",
        "maxConnections": "500", "metricsKey": "0123456789abcdef0123456789abcdef", "metricsOperator": "true",
        "webhookAllowPrivateTargets": "true", "keys": "/etc/livepush/keys.json",
        "pushToStartBudget": "4", "pushToStartWindow": "30m",
    ]

    private func read(_ arguments: [String], _ environment: [String: String] = [:]) async throws(ServerConfigurationError) -> ServeSettings {
        try await ServeSettings.read(arguments: arguments, environment: environment)
    }

    /// Says where to send unless the setting under test does.
    private func endpointFlags(unless key: String) -> [String] {
        let endpoint = key == "environment" || key == "url" ? [] : ["--url", "https://127.0.0.1:2197"]
        // A webhook URL needs its secret.
        return endpoint + (key == "webhookUrl" ? ["--webhook-secret", Self.samples["webhookSecret"] ?? ""] : [])
    }

    @Test func theDefaultInstanceIDIsStableAcrossRestarts() async throws {
        let first = try await read(["--url", "https://127.0.0.1:2197", "--port", "9090"])
        let again = try await read(["--url", "https://127.0.0.1:2197", "--port", "9090"])
        #expect(first.server.instanceID == again.server.instanceID)
        #expect(first.server.instanceID.hasPrefix("livepush-") && first.server.instanceID.hasSuffix("-9090"))
        let other = try await read(["--url", "https://127.0.0.1:2197", "--port", "9091"])
        #expect(other.server.instanceID != first.server.instanceID, "two instances on one host differ by port")
        let anyPort = try await read(["--url", "https://127.0.0.1:2197", "--port", "0"])
        let anyPortAgain = try await read(["--url", "https://127.0.0.1:2197", "--port", "0"])
        #expect(anyPort.server.instanceID != anyPortAgain.server.instanceID, "port 0: random, as the port is")
        let given = try await read(["--url", "https://127.0.0.1:2197", "--instance-id", "eu-1"])
        #expect(given.server.instanceID == "eu-1")
        #expect(ServeSettings.stableInstanceID(host: "web 1/é", port: 80) == "livepush-web-1---80")
    }

    @Test func theNamesOfEarlierReleasesStay() {
        let flags = Set(ServeSetting.all.filter { $0.sources.contains(.flag) }.map(\.flag))
        #expect(
            flags.isSuperset(of: [
                "--config", "--database", "--environment", "--url", "--ca-file", "--key-file", "--key-id", "--team-id", "--host",
                "--port", "--app-key", "--backend-key", "--workers", "--batch-size", "--connections", "--hourly-budget",
                "--frequent-hourly-budget", "--max-active-duration", "--default-expiration", "--default-dismissal-delay",
                "--forget-after", "--lifecycle-interval", "--webhook-url", "--instance-id", "--log-level",
            ]))
        let variables = Set(ServeSetting.all.filter { $0.sources.contains(.environment) }.map(\.environmentVariable))
        #expect(
            variables.isSuperset(of: [
                "LIVEPUSH_DATABASE", "LIVEPUSH_ENVIRONMENT", "LIVEPUSH_URL", "LIVEPUSH_CA_FILE", "LIVEPUSH_KEY_FILE", "LIVEPUSH_KEY_ID",
                "LIVEPUSH_TEAM_ID", "LIVEPUSH_HOST", "LIVEPUSH_PORT", "LIVEPUSH_APP_KEY", "LIVEPUSH_BACKEND_KEY", "LIVEPUSH_WORKERS",
                "LIVEPUSH_BATCH_SIZE", "LIVEPUSH_CONNECTIONS", "LIVEPUSH_HOURLY_BUDGET", "LIVEPUSH_FREQUENT_HOURLY_BUDGET",
                "LIVEPUSH_MAX_ACTIVE_DURATION", "LIVEPUSH_DEFAULT_EXPIRATION", "LIVEPUSH_DEFAULT_DISMISSAL_DELAY",
                "LIVEPUSH_FORGET_AFTER", "LIVEPUSH_LIFECYCLE_INTERVAL", "LIVEPUSH_WEBHOOK_URL", "LIVEPUSH_INSTANCE_ID", "LIVEPUSH_LOG_LEVEL",
            ]))
        // The file's keys are those of earlier releases (development API keys stay out of it), plus those
        // added since.
        let keys = Set(ServeSetting.all.filter { $0.sources.contains(.file) }.map(\.key))
        #expect(
            keys == [
                "host", "port", "database", "environment", "url", "caFile", "keyFile", "keyId", "teamId", "connections",
                "streamsPerConnection", "workers",
                "batchSize", "claimLease", "pollInterval", "retryBaseDelay", "retryMaxDelay", "defaultExpiration", "hourlyBudget",
                "frequentHourlyBudget", "maxActiveDuration", "defaultDismissalDelay", "forgetAfter", "lifecycleInterval",
                "webhookUrl", "historyLimit", "logLevel", "instanceId", "requestHeaderTimeout", "requestBodyTimeout",
                "shutdownTimeout", "manageUrl", "appTokenLifetime", "installationTokenLifetime", "appRateLimit", "appRateBurst", "backendRateLimit",
                "backendRateBurst", "operatorRateLimit", "operatorRateBurst",
                "webhookTimeout", "webhookMaxAge", "webhookAllowPrivateTargets", "installationRateLimit", "installationRateBurst",
                "addressFailureLimit", "addressFailureBurst",
                "maxConnections", "keys", "metricsOperator", "pushToStartBudget", "pushToStartWindow",
            ])
        #expect(Set(ServeSetting.all.map(\.key)).count == ServeSetting.all.count, "each setting is declared once")
    }

    @Test(arguments: ServeSetting.all.filter { $0.key != ServeSetting.config.key }.map(\.key))
    func everySettingIsReadFromEachOfItsSources(_ key: String) async throws {
        let setting = try #require(ServeSetting.named(key))
        let sample = try #require(Self.samples[key], "a sample value for \(key)")
        let base = endpointFlags(unless: key)

        let fromFlag = try await read(base + [setting.flag, sample])
        #expect(fromFlag.origins[key] == .flag(setting.flag, raw: sample))

        let fromEnvironment = try await read(base, [setting.environmentVariable: sample])
        #expect(fromEnvironment.origins[key] == .environment(setting.environmentVariable, raw: sample))
        #expect(fromEnvironment.label(key) == "$" + setting.environmentVariable)

        guard setting.sources.contains(.file) else { return }
        try await withConfigFile([key: Int(sample).map { $0 as Any } ?? sample]) { file in
            let fromFile = try await read(base + ["--config", file.path])
            #expect(fromFile.origins[key] == .file(key: key, path: file.path))
        }
    }

    @Test func eachSourceGivesTheSameValue() async throws {
        try await withConfigFile(["port": 9091, "maxActiveDuration": "2h", "forgetAfter": 120, "logLevel": "debug", "url": "https://127.0.0.1:2197"])
        { file in
            let settings = try await read(["--config", file.path])
            #expect(settings.server.port == 9091 && settings.server.maximumActiveDuration == 7200 && settings.server.forgetAfter == 120)
            #expect(settings.logLevel == .debug && settings.endpoint == APNsEndpoint(host: "127.0.0.1", port: 2197))
        }
        let flags = try await read([
            "--url", "https://127.0.0.1:2197", "--port=9091", "--max-active-duration", "2h", "--forget-after", "120",
            "--log-level", "debug", "--app-key", "dev-app-key-0123456789", "--connections", "2",
        ])
        #expect(flags.server.port == 9091 && flags.server.maximumActiveDuration == 7200 && flags.server.forgetAfter == 120)
        #expect(flags.server.appKeys == ["dev-app-key-0123456789"] && flags.server.apnsConnections == 2)
    }

    @Test func thePushToStartBudgetReachesTheServersConfiguration() async throws {
        let defaults = try await read(["--environment", "sandbox"])
        #expect(defaults.server.pushToStartBudget == 10 && defaults.server.pushToStartWindow == 3600)
        let given = try await read(["--environment", "sandbox", "--push-to-start-budget", "4"], ["LIVEPUSH_PUSH_TO_START_WINDOW": "30m"])
        #expect(given.server.pushToStartBudget == 4 && given.server.pushToStartWindow == 1800)
        #expect(ServeSetting.named("pushToStartBudget")?.defaultText == "10")
        #expect(ServeSetting.named("pushToStartWindow")?.defaultText == "1h")
    }

    @Test func aFlagBeatsItsVariableWhichBeatsTheFile() async throws {
        try await withConfigFile(["port": 1111, "environment": "sandbox"]) { file in
            let all = try await read(["--config", file.path, "--port", "3333"], ["LIVEPUSH_PORT": "2222"])
            #expect(all.server.port == 3333)
            let noFlag = try await read(["--config", file.path], ["LIVEPUSH_PORT": "2222"])
            #expect(noFlag.server.port == 2222)
            let emptyVariable = try await read(["--config", file.path], ["LIVEPUSH_PORT": ""])
            #expect(emptyVariable.server.port == 1111, "an empty variable counts as unset")
            let fromVariable = try await read([], ["LIVEPUSH_CONFIG": file.path])
            #expect(fromVariable.server.port == 1111 && fromVariable.config == file.path)
        }
        let none = try await read(["--environment", "sandbox"])
        #expect(none.server.port == ServerConfiguration().port && none.origins["port"] == nil)
    }

    @Test func aBadValueNamesWhereItCameFromAndWhatIsAccepted() async throws {
        await expectFailure(["--environment", "sandbox", "--port", "abc"], "--port 'abc' is not a whole number")
        await expectFailure(["--environment", "sandbox"], "$LIVEPUSH_PORT 'abc' is not a whole number", ["LIVEPUSH_PORT": "abc"])
        await expectFailure(
            ["--environment", "sandbox", "--forget-after", "soon"],
            "--forget-after 'soon' is not a duration; accepted: seconds (90, 0.5) or a number with a unit: 45s, 30m, 8h, 1d")
        await expectFailure(["--environment", "sandbox"], "$LIVEPUSH_PORT must be 0 to 65535", ["LIVEPUSH_PORT": "70000"])
        await expectFailure(["--environment", "prod"], "--environment 'prod' is not sandbox or production")
        await expectFailure(
            ["--url", "http://127.0.0.1"],
            "--url: 'http://127.0.0.1' is not https; APNs is HTTP/2 over TLS, so the URL must start with https://")
        await expectFailure(
            ["--environment", "sandbox", "--log-level", "loud"],
            "--log-level 'loud' is not one of trace, debug, info, notice, warning, error, critical")
        await expectFailure(["--environment", "sandbox", "--claim-lease", "0.5"], "--claim-lease must be at least 1 second")
        await expectFailure(["--environment", "sandbox", "--push-to-start-budget", "0"], "--push-to-start-budget must be 1 or more")
        await expectFailure(
            ["--environment", "sandbox"], "$LIVEPUSH_PUSH_TO_START_WINDOW must be more than 0 seconds", ["LIVEPUSH_PUSH_TO_START_WINDOW": "0"])
        await expectFailure(
            [], "say where to send: --environment sandbox|production, or --url https://HOST:PORT (the local simulator is https://127.0.0.1:2197)")
        await expectFailure(
            ["--environment", "sandbox"],
            "give either --environment or --url, not both (environment came from --environment, url from $LIVEPUSH_URL)",
            ["LIVEPUSH_URL": "https://127.0.0.1:2197"])

        try await withConfigFile(["port": "8080", "maxActiveDuration": "forever", "environment": "sandbox"]) { file in
            await expectFailure(
                ["--config", file.path, "--max-active-duration", "1h"], "'port' in \(file.path) has the wrong type; expected a whole number")
            await expectFailure(
                ["--config", file.path, "--port", "1"],
                "'maxActiveDuration' in \(file.path) 'forever' is not a duration; accepted: seconds (90, 0.5) or a number with a unit: 45s, 30m, 8h, 1d"
            )
        }
    }

    @Test func aWrongCommandLineIsAUsageError() async throws {
        // argument-parser's words, as for every other command.
        await expectFailure(["--prot", "80"], "Unknown option '--prot'. Did you mean '--port'?", usage: true)
        await expectFailure(["--port"], "Missing value for '--port <N>'", usage: true)
        await expectFailure(["--environment", "sandbox", "extra"], "Unexpected argument 'extra'", usage: true)
    }

    @Test func theConfigFileRefusesUnknownKeysAndDevelopmentKeys() async throws {
        for (contents, message) in [
            (#"{"prot":9090}"#, "unknown key 'prot'"), (#"{"appKey":"dev-app-key-0123456789"}"#, "unknown key 'appKey'"),
            (#"{"port":{"value":1}}"#, "has the wrong type"), ("[1]", "the top level must be an object"),
            (#"{"port": 80"#, "is not valid JSON"),
        ] {
            try await withConfigFile(raw: contents) { file in
                do throws(ServerConfigurationError) {
                    _ = try await read(["--config", file.path])
                    Issue.record("\(contents) was accepted")
                } catch {
                    #expect(error.description.contains(message), "\(error.description)")
                }
            }
        }
    }

    @Test func helpShowsEachSettingsVariableKeyAndDefaultFromItsDeclaration() {
        let text = ServeOptions.helpMessage(columns: 80)
        let help = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in ServeSetting.all {
            #expect(help.contains(setting.helpDescription), "\(setting.key)")
            #expect(setting.helpDescription.contains("Default: \(setting.defaultText)."))
            if setting.sources.contains(.environment) { #expect(setting.helpDescription.contains("$" + setting.environmentVariable)) }
            if setting.sources.contains(.file) { #expect(setting.helpDescription.contains("[\(setting.key)]")) }
        }
        #expect(ServeSetting.named("port")?.defaultText == "8080")
        #expect(ServeSetting.named("maxActiveDuration")?.defaultText == "8h")
        #expect(ServeSetting.named("lifecycleInterval")?.defaultText == "60s")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    private func expectFailure(
        _ arguments: [String], _ message: String, _ environment: [String: String] = [:], usage: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await read(arguments, environment)
            Issue.record("\(arguments) \(environment) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description == message, sourceLocation: sourceLocation)
            #expect(error.isUsageError == usage, sourceLocation: sourceLocation)
        }
    }
}

/// A JSON config file in a temporary directory.
/// A settings file for one test.
struct ConfigFixture {
    let path: String
}

/// Runs `body` with a settings file holding `values` as JSON, deleted afterwards.
func withConfigFile(_ values: [String: Any], _ body: (ConfigFixture) async throws -> Void) async throws {
    try await withConfigFile(raw: String(decoding: try JSONSerialization.data(withJSONObject: values), as: UTF8.self), body)
}

/// Runs `body` with a settings file holding `raw`, deleted afterwards.
func withConfigFile(raw: String, _ body: (ConfigFixture) async throws -> Void) async throws {
    try await withTemporaryDirectory(prefix: "livepush-settings") { folder in
        let path = folder.appendingPathComponent("settings.json").path
        try Data(raw.utf8).write(to: URL(fileURLWithPath: path))
        try await body(ConfigFixture(path: path))
    }
}
