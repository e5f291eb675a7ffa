import Foundation

/// The JSON file given with `livepush serve --config FILE`. Every key is optional; flags and environment
/// variables override it. Durations are seconds or strings such as "8h". Example:
///
///     {"port": 8080, "database": "/var/lib/livepush/livepush.sqlite", "environment": "production",
///      "keyFile": "/etc/livepush/AuthKey.p8", "keyId": "ABC123DEFG", "teamId": "DEF123GHIJ",
///      "workers": 4, "hourlyBudget": 24, "maxActiveDuration": "8h", "webhookUrl": "https://example.com/hook"}
public struct ServerConfigurationFile: Sendable, Hashable, Decodable {
    public var host: String?
    public var port: Int?
    public var database: String?
    public var environment: String?
    public var url: String?
    public var caFile: String?
    public var keyFile: String?
    public var keyId: String?
    public var teamId: String?
    public var connections: Int?
    public var workers: Int?
    public var batchSize: Int?
    public var claimLease: FileDuration?
    public var pollInterval: FileDuration?
    public var retryBaseDelay: FileDuration?
    public var retryMaxDelay: FileDuration?
    public var defaultExpiration: FileDuration?
    public var hourlyBudget: Int?
    public var frequentHourlyBudget: Int?
    public var maxActiveDuration: FileDuration?
    public var defaultDismissalDelay: FileDuration?
    public var forgetAfter: FileDuration?
    public var lifecycleInterval: FileDuration?
    public var webhookUrl: String?
    public var historyLimit: Int?
    public var logLevel: String?
    public var instanceId: String?

    public init() {}

    /// A duration in the file: a number of seconds or a string such as "8h".
    public struct FileDuration: Sendable, Hashable, Decodable {
        public var seconds: TimeInterval

        public init(seconds: TimeInterval) { self.seconds = seconds }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self), number.isFinite, number >= 0 {
                seconds = number
                return
            }
            if let text = try? container.decode(String.self), let value = DurationText.seconds(text) {
                seconds = value
                return
            }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a duration: \(DurationText.forms)")
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, database, environment, url, caFile, keyFile, keyId, teamId, connections, workers, batchSize
        case claimLease, pollInterval, retryBaseDelay, retryMaxDelay, defaultExpiration, hourlyBudget
        case frequentHourlyBudget, maxActiveDuration, defaultDismissalDelay, forgetAfter, lifecycleInterval
        case webhookUrl, historyLimit, logLevel, instanceId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        let any = try decoder.container(keyedBy: AnyKey.self)
        for key in any.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: CodingKeys.host, in: container,
                debugDescription: "unknown key '\(key.stringValue)'; accepted: \(known.sorted().joined(separator: ", "))"
            )
        }
        host = try container.decodeIfPresent(String.self, forKey: .host)
        port = try container.decodeIfPresent(Int.self, forKey: .port)
        database = try container.decodeIfPresent(String.self, forKey: .database)
        environment = try container.decodeIfPresent(String.self, forKey: .environment)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        caFile = try container.decodeIfPresent(String.self, forKey: .caFile)
        keyFile = try container.decodeIfPresent(String.self, forKey: .keyFile)
        keyId = try container.decodeIfPresent(String.self, forKey: .keyId)
        teamId = try container.decodeIfPresent(String.self, forKey: .teamId)
        connections = try container.decodeIfPresent(Int.self, forKey: .connections)
        workers = try container.decodeIfPresent(Int.self, forKey: .workers)
        batchSize = try container.decodeIfPresent(Int.self, forKey: .batchSize)
        claimLease = try container.decodeIfPresent(FileDuration.self, forKey: .claimLease)
        pollInterval = try container.decodeIfPresent(FileDuration.self, forKey: .pollInterval)
        retryBaseDelay = try container.decodeIfPresent(FileDuration.self, forKey: .retryBaseDelay)
        retryMaxDelay = try container.decodeIfPresent(FileDuration.self, forKey: .retryMaxDelay)
        defaultExpiration = try container.decodeIfPresent(FileDuration.self, forKey: .defaultExpiration)
        hourlyBudget = try container.decodeIfPresent(Int.self, forKey: .hourlyBudget)
        frequentHourlyBudget = try container.decodeIfPresent(Int.self, forKey: .frequentHourlyBudget)
        maxActiveDuration = try container.decodeIfPresent(FileDuration.self, forKey: .maxActiveDuration)
        defaultDismissalDelay = try container.decodeIfPresent(FileDuration.self, forKey: .defaultDismissalDelay)
        forgetAfter = try container.decodeIfPresent(FileDuration.self, forKey: .forgetAfter)
        lifecycleInterval = try container.decodeIfPresent(FileDuration.self, forKey: .lifecycleInterval)
        webhookUrl = try container.decodeIfPresent(String.self, forKey: .webhookUrl)
        historyLimit = try container.decodeIfPresent(Int.self, forKey: .historyLimit)
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel)
        instanceId = try container.decodeIfPresent(String.self, forKey: .instanceId)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads and decodes the file; the error names the file and the problem.
    public static func load(path: String) throws(ServerConfigurationError) -> ServerConfigurationFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerConfigurationError(setting: "--config", rule: "'\(path)' does not exist or is not readable")
        }
        do {
            return try JSONDecoder().decode(ServerConfigurationFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw ServerConfigurationError(setting: "--config", rule: "'\(path)': \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ServerConfigurationError(setting: "--config", rule: "'\(path)': \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch {
            throw ServerConfigurationError(setting: "--config", rule: "'\(path)' is not a valid JSON config: \(error)")
        }
    }
}
