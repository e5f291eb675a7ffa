import APNsClient
import APNsCore
import Configuration
import Foundation
import Logging
import SystemPackage

/// What `livepush serve` was told: the server's configuration and what the command itself needs (the
/// store, the APNs endpoint and key, the log level), read once from flags, environment variables and
/// the JSON config file through swift-configuration (``read(options:environment:)``). Each setting is
/// declared on its field (``Setting``), here and in ``ServerConfiguration``.
package struct ServeSettings: Sendable {
    /// The JSON config file, when one was given: the last source of the others (never read from itself).
    @Setting(
        path: "config", sources: [.flag, .environment], help: "A JSON file with the settings' keys (in brackets); an unknown key is refused.")
    package var config: String? = nil
    @Setting("database", placeholder: "FILE|URL", help: "SQLite file (created with its directory) or postgres://user:pass@host/db URL.")
    package var database = PushStoreOpener.defaultDatabase
    @Setting(
        "environment", placeholder: "sandbox|production",
        help: "Apple's APNs environment; registrations for the other one are refused. This or --url is required.", defaultText: "none",
        parse: { raw, origin throws(ServerConfigurationError) in
            guard let environment = APNsEnvironment(rawValue: raw) else { throw origin.refusal(raw: raw, expected: "sandbox or production") }
            return environment
        })
    package var environment: APNsEnvironment? = nil
    @Setting(
        "url", placeholder: "URL", help: "Any APNs endpoint instead, e.g. https://127.0.0.1:2197 for `livepush simulator`.",
        defaultText: "none", parse: ServeSettings.endpoint)
    package var url: APNsEndpoint? = nil
    /// Where broadcast channels are managed; nil: Apple's management host of the environment, or the
    /// `url` host on port 2195 (the simulator's default `--manage-port`).
    @Setting(
        "manageUrl", placeholder: "URL", help: "Broadcast channel management endpoint, e.g. https://127.0.0.1:2195 for `livepush simulator`.",
        defaultText: "Apple's for --environment; the --url host on port 2195", parse: ServeSettings.endpoint)
    package var manageURL: APNsEndpoint? = nil
    @Setting(path: "caFile", placeholder: "PEM", help: "Extra CA certificate to trust, e.g. the simulator's ca.pem.")
    package var caFile: String? = nil
    @Setting(path: "keyFile", help: "The .p8 provider key (PKCS#8 PEM).", defaultText: "required")
    package var keyFile: String? = nil
    @Setting("keyId", placeholder: "ID", help: "The key's Key ID, 10 characters A-Z 0-9 (the JWT kid).", defaultText: "required")
    package var keyID: String? = nil
    @Setting("teamId", placeholder: "ID", help: "The Team ID, 10 characters A-Z 0-9 (the JWT iss).", defaultText: "required")
    package var teamID: String? = nil
    /// A keys file (`ProviderKeysFile`): several keys with scopes instead of `keyFile` and `keyID`.
    @Setting(
        path: "keys",
        help: "A JSON file listing several provider keys with their scopes (environment, topics), instead of --key-file and --key-id; "
            + "each push is signed with the key for its topic.",
        defaultText: "none: the one key of --key-file")
    package var keysFile: String? = nil
    package var server = ServerConfiguration()
    @Setting(
        "logLevel", placeholder: "LEVEL", help: "trace, debug, info, notice, warning, error or critical.", defaultText: "info",
        oneOf: "one of trace, debug, info, notice, warning, error, critical", choose: { Logger.Level(rawValue: $0) })
    package var logLevel: Logger.Level = .info
    /// Where each setting that was given came from, by key.
    package var origins: [String: SettingOrigin] = [:]

    package init() {}

    /// The settings with the values of `given` (by key) instead of their declared defaults.
    init(given: [String: any Sendable]) {
        self = ServeSetting.$given.withValue(given) { ServeSettings() }
    }

    /// `--url` and `--manage-url`: an https URL with a host.
    @Sendable private static func endpoint(_ raw: String, _ origin: SettingOrigin) throws(ServerConfigurationError) -> APNsEndpoint? {
        do throws(APNsEndpoint.ParseError) { return try APNsEndpoint(url: raw) } catch {
            throw ServerConfigurationError(setting: origin.label + ":", rule: error.description)
        }
    }

    /// Where pushes go: `url`, else Apple's host for `environment` (``read(arguments:environment:)``
    /// makes sure exactly one of them is given).
    package var endpoint: APNsEndpoint { url ?? .apple(environment ?? .sandbox) }

    /// How a message names the setting with this key: where its value came from, else its flag. Keys
    /// joined by "/" (a rule about two settings) name each.
    package func label(_ keys: String) -> String {
        keys.split(separator: "/").map { key in
            origins[String(key)]?.label ?? ServeSetting.named(String(key))?.flag ?? String(key)
        }.joined(separator: "/")
    }

    /// Reads every setting of ``ServeSetting/all`` from its flag in `arguments` (the command line after
    /// `serve`, parsed by argument-parser as ``ServeOptions``), else as ``read(options:environment:)``
    /// does. A wrong command line (an unknown flag, a flag without its value) is a usage error.
    package static func read(arguments: [String], environment: [String: String]) async throws(ServerConfigurationError) -> ServeSettings {
        let options: ServeOptions
        do { options = try ServeOptions.parse(arguments) } catch {
            throw ServerConfigurationError(setting: "", rule: ServeOptions.message(for: error), isUsageError: true)
        }
        return try await read(options: options, environment: environment)
    }

    /// Reads every setting of ``ServeSetting/all`` from its flag in `options`, else its variable in
    /// `environment` (an empty one counts as unset), else the `--config` file, else keeps its default;
    /// then checks them. Errors name the flag, variable or file key the bad value came from and what is
    /// accepted.
    package static func read(options: ServeOptions, environment: [String: String]) async throws(ServerConfigurationError) -> ServeSettings {
        let flags = options.given
        let variables = environment.filter { !$0.value.isEmpty }
        var sources = SettingSources(flags: flags, environment: variables)
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: try ServeSetting.configValues(flags: flags)),
            EnvironmentVariablesProvider(
                environmentVariables: variables,
                secretsSpecifier: .specific(Set(ServeSetting.all.filter(\.isSecret).map(\.environmentVariable)))
            ).prefixKeys(with: "livepush"),
        ]
        var given: [String: any Sendable] = [:]
        var origins: [String: SettingOrigin] = [:]
        // The file is the last source of the others: its path first.
        let config = ServeSetting.declared("config")
        if let (value, origin) = try await config.read(from: ConfigReader(providers: providers), sources: sources),
            let path = value as? String
        {
            (given[config.key], origins[config.key]) = (path, origin)
            let file = try await ConfigFile.load(path: path)
            providers.append(file.provider)
            sources.file = (path, file.keys)
        }
        let reader = ConfigReader(providers: providers)
        for setting in ServeSetting.all where setting.key != config.key {
            if let (value, origin) = try await setting.read(from: reader, sources: sources) {
                (given[setting.key], origins[setting.key]) = (value, origin)
            }
        }
        var settings = ServeSettings(given: given)
        settings.origins = origins
        try settings.checkEndpoint()
        settings.server.environment = settings.endpoint.environment
        // Without an --instance-id, a process restarted on the same host and port is the same instance: it
        // takes back the outbox claims of the run that died at once, not after the claim lease.
        if origins["instanceId"] == nil, settings.server.port != 0 {
            settings.server.instanceID = Self.stableInstanceID(host: ProcessInfo.processInfo.hostName, port: settings.server.port)
        }
        do { try settings.server.validate() } catch {
            throw ServerConfigurationError(setting: settings.label(error.setting), rule: error.rule)
        }
        return settings
    }

    /// `livepush-HOST-PORT`: unique among instances that share a database (two on one host listen on two
    /// ports), the same across restarts. Host characters other than letters, digits, `.` and `-` become `-`.
    package static func stableInstanceID(host: String, port: Int) -> String {
        let name = String(
            host.unicodeScalars.map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-") ? Character(scalar) : "-"
            }.prefix(80))
        return "livepush-\(name.isEmpty ? "host" : name)-\(port)"
    }

    /// Exactly one of `environment` and `url`, wherever each came from.
    private func checkEndpoint() throws(ServerConfigurationError) {
        switch (environment, url) {
        case (.some, .some):
            throw ServerConfigurationError(
                setting: "",
                rule: "give either --environment or --url, not both (environment came from "
                    + "\(label("environment")), url from \(label("url")))"
            )
        case (nil, nil):
            throw ServerConfigurationError(
                setting: "",
                rule: "say where to send: --environment sandbox|production, or --url https://HOST:PORT "
                    + "(the local simulator is https://127.0.0.1:2197)"
            )
        default:
            return
        }
    }
}

/// The given values of each source, to name where a setting's value came from.
struct SettingSources: Sendable {
    /// Raw flag values by key.
    var flags: [String: String]
    /// The non-empty environment variables.
    var environment: [String: String]
    /// The config file and its top-level keys.
    var file: (path: String, keys: Set<String>)?

    /// The source `setting`'s value is read from, in precedence order; nil when none gives it.
    func origin(of setting: ServeSetting) -> SettingOrigin? {
        if setting.sources.contains(.flag), let raw = flags[setting.key] {
            return .flag(setting.flag, raw: raw)
        }
        if setting.sources.contains(.environment), let raw = environment[setting.environmentVariable] {
            return .environment(setting.environmentVariable, raw: raw)
        }
        if setting.sources.contains(.file), let file, file.keys.contains(setting.key) {
            return .file(key: setting.key, path: file.path)
        }
        return nil
    }
}

extension ServeSetting {
    /// Reads this setting through `reader` (flags, environment, file): the field's value and where it
    /// came from, or nil when no source gives it (the field keeps its default).
    func read(from reader: ConfigReader, sources: SettingSources) async throws(ServerConfigurationError) -> (any Sendable, SettingOrigin)? {
        guard let origin = sources.origin(of: self) else { return nil }
        let configKey = ConfigKey(key)
        let value: Value?
        do {
            switch kind {
            case .text:
                value = try await reader.fetchString(forKey: configKey, isSecret: isSecret).map(Value.text)
            case .integer:
                value = try await reader.fetchInt(forKey: configKey, isSecret: isSecret).map(Value.integer)
            case .duration:
                // A JSON number is seconds; anything else is text in DurationText's forms.
                value = try await typedOrText(configKey, reader, origin) { () async throws -> TimeInterval? in
                    guard let seconds = try? await reader.fetchDouble(forKey: configKey) else { return nil }
                    guard seconds.isFinite, seconds >= 0 else { throw origin.refusal(raw: "\(seconds)", expected: kind.expected) }
                    return seconds
                } parse: {
                    DurationText.seconds($0)
                }.map(Value.seconds)
            case .boolean:
                value = try await typedOrText(configKey, reader, origin) {
                    try? await reader.fetchBool(forKey: configKey)
                } parse: {
                    Self.boolean($0)
                }.map(Value.boolean)
            }
        } catch let error as ServerConfigurationError {
            throw error
        } catch {
            // swift-configuration's conversion error names the key only: name the source and the form instead.
            throw origin.refusal(raw: nil, expected: kind.expected)
        }
        guard let value else { return nil }
        return (try convert(value, origin), origin)
    }

    /// A value the config file may hold typed (a JSON number or boolean, read by `typed`) and every source
    /// may give as text in `parse`'s forms; text `parse` refuses is refused with the setting's form.
    private func typedOrText<T>(
        _ key: ConfigKey, _ reader: ConfigReader, _ origin: SettingOrigin, typed: () async throws -> T?, parse: (String) -> T?
    ) async throws -> T? {
        if case .file = origin, let value = try await typed() { return value }
        guard let text = try await reader.fetchString(forKey: key) else { return nil }
        guard let value = parse(text) else { throw origin.refusal(raw: text, expected: kind.expected) }
        return value
    }

    /// The flags as the in-memory provider's values: whole numbers as numbers (a bad one is refused
    /// here, naming the flag), the rest as the text given.
    static func configValues(flags: [String: String]) throws(ServerConfigurationError) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for setting in all {
            guard let raw = flags[setting.key] else { continue }
            let content: ConfigContent
            if setting.kind == .integer {
                guard let number = Int(raw) else {
                    throw SettingOrigin.flag(setting.flag, raw: raw).refusal(raw: raw, expected: setting.kind.expected)
                }
                content = .int(number)
            } else {
                content = .string(raw)
            }
            values[AbsoluteConfigKey([setting.key])] = ConfigValue(content, isSecret: setting.isSecret)
        }
        return values
    }
}

/// The `--config` JSON file: its keys checked against the settings, its values read by
/// swift-configuration's `FileProvider<JSONSnapshot>`.
enum ConfigFile {
    static func load(path: String) async throws(ServerConfigurationError) -> (provider: FileProvider<JSONSnapshot>, keys: Set<String>) {
        func refuse(_ rule: String) -> ServerConfigurationError { ServerConfigurationError(setting: "--config", rule: rule) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw refuse("'\(path)' does not exist or is not readable")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw refuse("'\(path)' is not valid JSON")
        }
        guard let dictionary = object as? [String: Any] else {
            throw refuse("'\(path)' is not a valid JSON config: the top level must be an object")
        }
        // swift-configuration ignores keys nobody reads: a typo would go unnoticed.
        let accepted = Set(ServeSetting.all.filter { $0.sources.contains(.file) }.map(\.key))
        for key in dictionary.keys.sorted() {
            guard accepted.contains(key) else {
                throw refuse("'\(path)': unknown key '\(key)'; accepted: \(accepted.sorted().joined(separator: ", "))")
            }
            // It would flatten an object into `key.inner` keys and leave `key` unset without a word.
            if dictionary[key] is [String: Any] || dictionary[key] is [Any] {
                throw ServerConfigurationError(setting: "'\(key)' in \(path)", rule: "has the wrong type; expected a single value")
            }
        }
        do {
            return (try await FileProvider<JSONSnapshot>(filePath: FilePath(path)), Set(dictionary.keys))
        } catch {
            throw refuse("'\(path)' is not a valid JSON config: \(error)")
        }
    }
}
