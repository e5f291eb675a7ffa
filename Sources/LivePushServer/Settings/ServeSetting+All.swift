import APNsClient
import APNsCore
import Foundation
import Logging

extension ServeSetting {
    /// Every setting of `livepush serve`, in the order help lists them. Each is read from its flag, else
    /// its environment variable, else the `--config` JSON file, else its default (``ServeSettings/read(arguments:environment:)``).
    package static let all: [ServeSetting] = [
        config,
        .text(
            "database", \.database, placeholder: "FILE|URL",
            help: "SQLite file (created with its directory) or postgres://user:pass@host/db URL."),
        environment, url, manageURL,
        .path("caFile", \.caFile, placeholder: "PEM", help: "Extra CA certificate to trust, e.g. the simulator's ca.pem."),
        keyFile, keyID, teamID, keys,
        .text("host", \.server.host, placeholder: "ADDRESS", help: "Address to listen on."),
        .integer("port", \.server.port, .from(0...65535), help: "HTTP port (0: any free one)."),
        .parsed(
            "appKey", \.server.appKeys, sources: [.flag, .environment], placeholder: "KEY",
            help: "A development API key with scope app (16 characters or more; never stored).",
            defaultText: "none", isSecret: true
        ) { raw, _ in [raw] },
        .parsed(
            "backendKey", \.server.backendKeys, sources: [.flag, .environment], placeholder: "KEY",
            help: "A development API key with scope backend (16 characters or more; never stored).",
            defaultText: "none", isSecret: true
        ) { raw, _ in [raw] },
        .parsed(
            "appTokenSecret", \.server.appTokenSecret, sources: [.flag, .environment], placeholder: "SECRET",
            help: "Signs app tokens (HS256; 32 characters or more). Default: a random key kept in the database, shared by every instance.",
            defaultText: "stored", isSecret: true,
            accepted: .secret(atLeast: 32, bytes: true, "must have at least 32 characters (e.g. `openssl rand -hex 32`)")
        ) { raw, _ in raw },
        .duration(
            "appTokenLifetime", \.server.appTokenLifetime, Accepted("must be 60 seconds to 7 days") { (60...(7 * 86_400)).contains($0) },
            help: "Lifetime of a user token when the backend does not give ttlSeconds (60s to 7d)."),
        .duration(
            "installationTokenLifetime", \.server.installationTokenLifetime,
            Accepted("must be 1 hour to 90 days") { (3600...(90 * 86_400)).contains($0) },
            help: "Lifetime of an installation token (1h to 90d); the app renews it with POST /v1/installations/{installationId}/token."),
        .integer(
            "appRateLimit", \.server.appRateLimit, .from(0...100_000_000, "requests per minute", zero: "no limit"),
            help: "Requests per minute per app principal (user, installation, app key); 0: no limit; development app keys are exempt."),
        .integer(
            "appRateBurst", \.server.appRateBurst, .from(1...1_000_000, "requests"),
            help: "Requests an app principal may make at once before the per-minute rate applies."),
        .integer(
            "backendRateLimit", \.server.backendRateLimit, .from(0...100_000_000, "requests per minute", zero: "no limit"),
            help: "Requests per minute per backend key; 0: no limit."),
        .integer(
            "backendRateBurst", \.server.backendRateBurst, .from(1...1_000_000, "requests"),
            help: "Requests a backend key may make at once before the per-minute rate applies."),
        .integer(
            "operatorRateLimit", \.server.operatorRateLimit, .from(0...100_000_000, "requests per minute", zero: "no limit"),
            help: "Requests per minute per operator key (the console's routes); 0: no limit."),
        .integer(
            "operatorRateBurst", \.server.operatorRateBurst, .from(1...1_000_000, "requests"),
            help: "Requests an operator key may make at once before the per-minute rate applies."),
        .integer(
            "installationRateLimit", \.server.installationRateLimit, .from(0...100_000_000, "requests per minute", zero: "no limit"),
            help:
                "Requests per minute of all the installations one app key opened, together (each is also held to --app-rate-limit); 0: no shared limit."
        ),
        .integer(
            "installationRateBurst", \.server.installationRateBurst, .from(1...1_000_000, "requests"),
            help: "Requests those installations may make at once, together."),
        .integer(
            "addressFailureLimit", \.server.addressFailureLimit, .from(0...100_000_000, "failed requests per minute", zero: "no limit"),
            help:
                "Failed requests (401, 403) per minute per client address (IPv6: per /64); past it every request from the address is answered 429 unchecked; 0: no limit."
        ),
        .integer(
            "addressFailureBurst", \.server.addressFailureBurst, .from(1...1_000_000, "failed requests"),
            help: "Failed requests a client address may make at once."),
        .integer(
            "maxConnections", \.server.maximumConnections, .from(1...1_000_000, "connections"),
            help: "Most API connections open at once; one more is closed as it is accepted (keep ulimit -n above it)."),
        .integer("workers", \.server.workerCount, .from(0...1024), help: "Delivery workers (0: accept only, at most 1024)."),
        .integer("batchSize", \.server.batchSize, .from(1...10_000), help: "Pushes one worker claims at a time."),
        .integer("connections", \.server.apnsConnections, .from(1...1000), help: "Most APNs connections."),
        .integer(
            "hourlyBudget", \.server.hourlyPriority10Budget, .atLeast(0),
            help: "Priority-10 pushes per activity per hour before downgrading to 5."),
        .integer(
            "frequentHourlyBudget", \.server.frequentHourlyPriority10Budget, .atLeast(0),
            help: "The same for activities with frequentPushesEnabled."),
        .duration("maxActiveDuration", \.server.maximumActiveDuration, .positive(), help: "End activities active this long with their last state."),
        .integer(
            "pushToStartBudget", \.server.pushToStartBudget, .atLeast(1),
            help: "Push-to-start requests a renewal may send one device within --push-to-start-window; past it the renewal fails (1 or more)."),
        .duration(
            "pushToStartWindow", \.server.pushToStartWindow, .positive(), help: "The window of --push-to-start-budget (more than 0 seconds)."),
        .duration("defaultExpiration", \.server.defaultExpiration, .positive(), help: "Retry window of a push without expiration."),
        .duration(
            "defaultDismissalDelay", \.server.defaultDismissalDelay, .notNegative,
            help: "Lock Screen time of an ended activity without dismissal date."),
        .duration("forgetAfter", \.server.forgetAfter, .notNegative, help: "Forget ended activities this long after their dismissal."),
        .duration("lifecycleInterval", \.server.lifecycleInterval, .positive(), help: "How often the lifecycle sweep runs."),
        .duration(
            "claimLease", \.server.claimLease, Accepted("must be at least 1 second") { $0 >= 1 },
            help: "How long a worker's claim holds before another may take the push over (at least 1s)."),
        .duration(
            "pollInterval", \.server.pollInterval, .positive(atMost: 60),
            help: "How long an idle worker waits before looking at the outbox again (at most 60s)."),
        .duration(
            "retryBaseDelay", \.server.retryBaseDelay, .notNegative,
            help: "Outbox back-off after a push's first failed send; doubles per send."),
        .duration("retryMaxDelay", \.server.retryMaximumDelay, .notNegative, help: "The longest outbox back-off."),
        .integer("historyLimit", \.server.historyLimit, .from(1...1000), help: "Deliveries GET /v1/activities/{id} returns (1 to 1000)."),
        .duration(
            "requestHeaderTimeout", \.server.requestHeaderTimeout, .positive(atMost: 3600),
            help: "Close a connection whose request header is not complete this long after it opened or was last answered."),
        .duration(
            "requestBodyTimeout", \.server.requestBodyTimeout, .positive(atMost: 3600),
            help: "Close a connection whose request body is not complete this long after its header."),
        .duration(
            "shutdownTimeout", \.server.shutdownTimeout, .positive(atMost: 3600),
            help: "Longest graceful shutdown (in-flight pushes, queued webhook events) before it is cut short."),
        .parsed(
            "webhookUrl", \.server.webhookURL, placeholder: "URL",
            help: "POST token.invalid and activity.ended events here as JSON.", defaultText: "none"
        ) { raw, origin throws(ServerConfigurationError) in
            guard let url = URL(string: raw), url.host != nil else {
                throw origin.refusal(raw: raw, expected: "a URL; expected http(s)://host/path")
            }
            return url
        },
        .parsed(
            "webhookSecret", \.server.webhookSecret, sources: [.flag, .environment], placeholder: "SECRET",
            help: "Signs each webhook POST (LivePush-Signature, HMAC-SHA256); required with --webhook-url, 32 characters "
                + "or more, e.g. `openssl rand -hex 32`. Prefer the variable: flags show in ps.",
            defaultText: "none", isSecret: true,
            accepted: .secret(
                atLeast: ServerConfiguration.minimumWebhookSecretLength,
                "must have at least \(ServerConfiguration.minimumWebhookSecretLength) characters; make one with `openssl rand -hex 32`")
        ) { raw, _ in raw },
        .duration(
            "webhookTimeout", \.server.webhookTimeout, .positive(atMost: 300),
            help: "A webhook POST not answered this long has failed and is retried."),
        .duration(
            "webhookMaxAge", \.server.webhookMaximumAge, .positive(),
            help: "A webhook event not delivered this long after it happened is dropped (retries back off to 5 min)."),
        .boolean(
            "webhookAllowPrivateTargets", \.server.webhookAllowPrivateTargets,
            help:
                "Let the webhook POST to loopback, private, link-local, CGNAT and metadata addresses (refused by default); for a local receiver in development."
        ),
        .parsed(
            "metricsKey", \.server.metricsKey, sources: [.flag, .environment], placeholder: "KEY",
            help: "GET /metrics then needs 'Authorization: Bearer KEY' (32 characters or more); without it /metrics is public: "
                + "keep it off the internet (the reverse proxy's job).",
            defaultText: "none (public)", isSecret: true,
            accepted: Accepted("must have at least 32 characters, without spaces (e.g. `openssl rand -hex 32`)") { key in
                key.map { $0.utf8.count >= 32 && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } } ?? true
            }
        ) { raw, _ in raw },
        .boolean(
            "metricsOperator", \.server.metricsOperator,
            help: "GET /metrics then takes an operator key (livepush keys create --scope operator) as its bearer credential, "
                + "besides --metrics-key if given."),
        .parsed(
            "instanceId", \.server.instanceID, placeholder: "ID",
            help: "Names this process's outbox claims; keep it stable across restarts and unique among instances sharing a database.",
            defaultText: "livepush-HOST-PORT (random with port 0)",
            accepted: Accepted("must have 1 to 100 characters") { !$0.isEmpty && $0.count <= 100 }
        ) { raw, _ in raw },
        .choice(
            "logLevel", \.logLevel, placeholder: "LEVEL", help: "trace, debug, info, notice, warning, error or critical.",
            defaultText: "info", accepted: "one of trace, debug, info, notice, warning, error, critical"
        ) { Logger.Level(rawValue: $0) },
    ]

    /// `--config FILE`: the JSON file, the last source of the others (never read from itself).
    package static let config = ServeSetting.path(
        "config", \.config, sources: [.flag, .environment],
        help: "A JSON file with the settings' keys (in brackets); an unknown key is refused."
    )

    package static let environment = ServeSetting.parsed(
        "environment", \.environment, placeholder: "sandbox|production",
        help: "Apple's APNs environment; registrations for the other one are refused. This or --url is required.",
        defaultText: "none"
    ) { raw, origin throws(ServerConfigurationError) in
        guard let environment = APNsEnvironment(rawValue: raw) else { throw origin.refusal(raw: raw, expected: "sandbox or production") }
        return environment
    }

    package static let url = ServeSetting.parsed(
        "url", \.url, placeholder: "URL",
        help: "Any APNs endpoint instead, e.g. https://127.0.0.1:2197 for `livepush simulator`.", defaultText: "none"
    ) { raw, origin throws(ServerConfigurationError) in
        do throws(APNsEndpoint.ParseError) { return try APNsEndpoint(url: raw) } catch {
            throw ServerConfigurationError(setting: origin.label + ":", rule: error.description)
        }
    }

    package static let manageURL = ServeSetting.parsed(
        "manageUrl", \.manageURL, placeholder: "URL",
        help: "Broadcast channel management endpoint, e.g. https://127.0.0.1:2195 for `livepush simulator`.",
        defaultText: "Apple's for --environment; the --url host on port 2195"
    ) { raw, origin throws(ServerConfigurationError) in
        do throws(APNsEndpoint.ParseError) { return try APNsEndpoint(url: raw) } catch {
            throw ServerConfigurationError(setting: origin.label + ":", rule: error.description)
        }
    }

    package static let keyFile = ServeSetting.path("keyFile", \.keyFile, help: "The .p8 provider key (PKCS#8 PEM).", defaultText: "required")

    package static let keys = ServeSetting.path(
        "keys", \.keysFile,
        help:
            "A JSON file listing several provider keys with their scopes (environment, topics), instead of --key-file and --key-id; "
            + "each push is signed with the key for its topic.",
        defaultText: "none: the one key of --key-file")

    package static let keyID = ServeSetting.parsed(
        "keyId", \.keyID, placeholder: "ID", help: "The key's Key ID, 10 characters A-Z 0-9 (the JWT kid).", defaultText: "required"
    ) { raw, _ in raw }

    package static let teamID = ServeSetting.parsed(
        "teamId", \.teamID, placeholder: "ID", help: "The Team ID, 10 characters A-Z 0-9 (the JWT iss).", defaultText: "required"
    ) { raw, _ in raw }

    /// The setting with this key.
    package static func named(_ key: String) -> ServeSetting? { all.first { $0.key == key } }
}
