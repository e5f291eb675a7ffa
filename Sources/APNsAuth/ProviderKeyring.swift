import APNsCore
import Foundation
import Logging
import Metrics

/// Several provider keys, each with its scope, and the token source of each (docs/apns-protocol.md §5):
/// a provider that holds topic-specific keys, or one key per environment, signs every push with the key
/// that covers its topic and environment.
///
/// ```swift
/// let keyring = try ProviderKeyring([
///     ScopedProviderKey(try ProviderCredentials(keyFile: "rangers.p8", keyID: "KEYRANGERS", teamID: "TEAM123456"),
///                       scope: ProviderKeyScope(environment: .production, topics: ["com.example.rangers"])),
///     ScopedProviderKey(try ProviderCredentials(keyFile: "team.p8", keyID: "KEYTEAM001", teamID: "TEAM123456"),
///                       scope: ProviderKeyScope(environment: .production)),
/// ])
/// let source = try keyring.source(forTopic: "com.example.rangers.push-type.liveactivity", environment: .production)
/// ```
public final class ProviderKeyring: Sendable {
    /// The keys, in the order given, each with its token source.
    public let entries: [Entry]

    /// One key of the ring.
    public struct Entry: Sendable {
        public let scope: ProviderKeyScope
        public let source: ProviderTokenSource
        public var keyID: String { source.keyID }
    }

    /// - Parameters:
    ///   - keys: at least one; Key IDs unique; a topic-specific key with 1...400 topics.
    ///   - refreshInterval, clock, logger, metricsFactory: as for each key's `ProviderTokenSource`.
    public init(
        _ keys: [ScopedProviderKey],
        refreshInterval: TimeInterval = ProviderTokenSource.defaultRefreshInterval,
        clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "livepush.apns-auth"),
        metricsFactory: (any MetricsFactory)? = nil
    ) throws(ProviderKeyringError) {
        guard !keys.isEmpty else { throw .noKeys }
        var seen = Set<String>()
        var entries: [Entry] = []
        for key in keys {
            let keyID = key.credentials.keyID
            guard seen.insert(keyID).inserted else { throw .duplicateKeyID(keyID) }
            if let topics = key.scope.topics {
                guard !topics.isEmpty else { throw .emptyTopics(keyID: keyID) }
                guard topics.count <= ProviderKeyScope.maximumTopics else { throw .tooManyTopics(keyID: keyID, count: topics.count) }
                if let empty = topics.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
                    throw .badTopic(keyID: keyID, topic: empty)
                }
            }
            let source: ProviderTokenSource
            do {
                source = try ProviderTokenSource(
                    key: key.credentials.key, keyID: keyID, teamID: key.credentials.teamID, refreshInterval: refreshInterval,
                    clock: clock, logger: logger, metricsFactory: metricsFactory)
            } catch {
                throw .tokenSource(error)
            }
            entries.append(Entry(scope: key.scope, source: source))
        }
        self.entries = entries
    }

    /// The key for a push to `topic` in `environment`: a topic-specific key that lists the topic (or its
    /// bundle id) before a team-scoped one, a key of that one environment before a key of both, and
    /// otherwise the order given. `environment` nil matches keys of either environment.
    public func entry(forTopic topic: String, environment: APNsEnvironment?) throws(ProviderKeyringError) -> Entry {
        let covering = entries.enumerated().filter { $0.element.scope.covers(topic: topic, environment: environment) }
        let best = covering.min { lhs, rhs in
            let left = Self.rank(lhs.element.scope)
            let right = Self.rank(rhs.element.scope)
            return left != right ? left < right : lhs.offset < rhs.offset
        }
        guard let best else {
            throw .noKeyForTopic(topic: topic, environment: environment, scopes: entries.map { "\($0.keyID): \($0.scope)" })
        }
        return best.element
    }

    /// The token source of `entry(forTopic:environment:)`.
    public func source(forTopic topic: String, environment: APNsEnvironment?) throws(ProviderKeyringError) -> ProviderTokenSource {
        try entry(forTopic: topic, environment: environment).source
    }

    /// Lower is preferred: topic-specific before team-scoped, one environment before both.
    private static func rank(_ scope: ProviderKeyScope) -> Int {
        (scope.isTopicSpecific ? 0 : 2) + (scope.environment == nil ? 1 : 0)
    }
}

/// A provider key with the scope Apple gave it.
public struct ScopedProviderKey: Sendable {
    public let credentials: ProviderCredentials
    public let scope: ProviderKeyScope

    public init(_ credentials: ProviderCredentials, scope: ProviderKeyScope = .unrestricted) {
        self.credentials = credentials
        self.scope = scope
    }
}

/// Why a keyring could not be made, or has no key for a push.
public enum ProviderKeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    case noKeys
    case duplicateKeyID(String)
    case emptyTopics(keyID: String)
    case tooManyTopics(keyID: String, count: Int)
    case badTopic(keyID: String, topic: String)
    case tokenSource(ProviderTokenSourceError)
    /// No key covers the topic in the environment; `scopes` lists each key's scope.
    case noKeyForTopic(topic: String, environment: APNsEnvironment?, scopes: [String])

    public var description: String {
        switch self {
        case .noKeys:
            return "keys: the list is empty; give at least one provider key"
        case .duplicateKeyID(let keyID):
            return "keys: key id \(keyID) is listed twice; each key appears once, with all its topics"
        case .emptyTopics(let keyID):
            return "keys: key \(keyID) has an empty topics list; leave topics out for a team-scoped key or list its bundle ids"
        case .tooManyTopics(let keyID, let count):
            return "keys: key \(keyID) lists \(count) topics; Apple allows at most \(ProviderKeyScope.maximumTopics) per topic-specific key"
        case .badTopic(let keyID, let topic):
            return "keys: key \(keyID) lists topic '\(topic)'; a topic is a bundle id (or bundle id with push type suffix) without spaces"
        case .tokenSource(let error):
            return error.description
        case .noKeyForTopic(let topic, let environment, let scopes):
            return
                "no provider key covers topic \(topic) in \(environment?.rawValue ?? "this environment"); keys: \(scopes.joined(separator: "; "))"
        }
    }
}
