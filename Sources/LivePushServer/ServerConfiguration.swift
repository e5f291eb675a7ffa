import APNsClient
import APNsCore
import Foundation

/// Everything the provider server can be told, with its defaults. Each setting of `livepush serve` is
/// declared on its field (``Setting``): its key, default, accepted values and help; `livepush serve`
/// fills them from flags, environment variables and a JSON file (``ServeSettings``).
package struct ServerConfiguration: Sendable {
    /// The address the HTTP API listens on.
    @Setting("host", placeholder: "ADDRESS", help: "Address to listen on.")
    package var host = "127.0.0.1"
    /// The HTTP port; 0 picks a free one (tests).
    @Setting("port", .from(0...65535), help: "HTTP port (0: any free one).")
    package var port = 8080
    /// The APNs environment the server sends to, when known: registrations for the other one are refused.
    package var environment: APNsEnvironment?
    /// Development API keys accepted besides the stored ones (never stored or logged).
    @Setting(developmentKey: "appKey", help: "A development API key with scope app (16 characters or more; never stored).")
    package var appKeys: [String] = []
    @Setting(developmentKey: "backendKey", help: "A development API key with scope backend (16 characters or more; never stored).")
    package var backendKeys: [String] = []
    /// Development operator keys (the console's scope), for tests and local use.
    package var operatorKeys: [String] = []
    /// Signs app tokens (HMAC-SHA256, at least 32 characters); nil: a random key kept in the store, which
    /// every instance on the database shares. Changing it invalidates every token issued before.
    @Setting(
        "appTokenSecret", sources: [.flag, .environment], placeholder: "SECRET",
        help: "Signs app tokens (HS256; 32 characters or more). Default: a random key kept in the database, shared by every instance.",
        defaultText: "stored", isSecret: true,
        accepted: .secret(atLeast: 32, bytes: true, "must have at least 32 characters (e.g. `openssl rand -hex 32`)"))
    package var appTokenSecret: String? = nil
    /// How long a user token lives when the backend does not say (60 s to 7 days).
    @Setting(
        "appTokenLifetime", Accepted("must be 60 seconds to 7 days") { (60...(7 * 86_400)).contains($0) },
        help: "Lifetime of a user token when the backend does not give ttlSeconds (60s to 7d).")
    package var appTokenLifetime: TimeInterval = 3600
    /// How long an installation token lives (1 hour to 90 days); the app renews it before then
    /// (`POST /v1/installations/{installationId}/token`), else opens a new installation.
    @Setting(
        "installationTokenLifetime", Accepted("must be 1 hour to 90 days") { (3600...(90 * 86_400)).contains($0) },
        help: "Lifetime of an installation token (1h to 90d); the app renews it with POST /v1/installations/{installationId}/token.")
    package var installationTokenLifetime: TimeInterval = 30 * 86_400
    /// Requests per minute each app principal (user, installation, app key) may make on the app routes,
    /// with bursts up to `appRateBurst` at once; 0: no limit. Development app keys are not limited.
    @Setting(
        "appRateLimit", .from(0...100_000_000, "requests per minute", zero: "no limit"),
        help: "Requests per minute per app principal (user, installation, app key); 0: no limit; development app keys are exempt.")
    package var appRateLimit = 120
    @Setting(
        "appRateBurst", .from(1...1_000_000, "requests"),
        help: "Requests an app principal may make at once before the per-minute rate applies.")
    package var appRateBurst = 30
    /// The same per key on the backend routes (development backend keys included).
    @Setting(
        "backendRateLimit", .from(0...100_000_000, "requests per minute", zero: "no limit"),
        help: "Requests per minute per backend key; 0: no limit.")
    package var backendRateLimit = 60_000
    @Setting(
        "backendRateBurst", .from(1...1_000_000, "requests"), help: "Requests a backend key may make at once before the per-minute rate applies.")
    package var backendRateBurst = 2000
    /// The same per operator key on the console's routes: the console polls one or two routes every 2 s
    /// per open tab, so 600 a minute with bursts of 120 leave room for a few tabs and paging.
    @Setting(
        "operatorRateLimit", .from(0...100_000_000, "requests per minute", zero: "no limit"),
        help: "Requests per minute per operator key (the console's routes); 0: no limit.")
    package var operatorRateLimit = 600
    @Setting(
        "operatorRateBurst", .from(1...1_000_000, "requests"),
        help: "Requests an operator key may make at once before the per-minute rate applies.")
    package var operatorRateBurst = 120
    /// Requests per minute, and at once, of all the installations one app key opened, together (each is
    /// also held to `appRateLimit`); 0: no shared limit. Anyone with the app key can open installations,
    /// so without it their number would multiply the limit. 100 a second covers an app whose installations
    /// each make a few requests per Live Activity with a large installed base; raise it for more, and
    /// prefer user tokens (each user has its own budget) where the app has accounts.
    @Setting(
        "installationRateLimit", .from(0...100_000_000, "requests per minute", zero: "no limit"),
        help:
            "Requests per minute of all the installations one app key opened, together (each is also held to --app-rate-limit); 0: no shared limit."
    )
    package var installationRateLimit = 6_000
    @Setting("installationRateBurst", .from(1...1_000_000, "requests"), help: "Requests those installations may make at once, together.")
    package var installationRateBurst = 600
    /// Failed requests (401, 403; no credential) per minute, and at once, of one client address (IPv6:
    /// per /64) before every request from it is answered 429 without its credential being looked up; 0:
    /// no limit. Clients that authenticate never spend it: it is generous for many app users behind one
    /// carrier NAT whose tokens expire, and stops a client trying keys after 60.
    @Setting(
        "addressFailureLimit", .from(0...100_000_000, "failed requests per minute", zero: "no limit"),
        help:
            "Failed requests (401, 403) per minute per client address (IPv6: per /64); past it every request from the address is answered 429 unchecked; 0: no limit."
    )
    package var addressFailureLimit = 120
    @Setting("addressFailureBurst", .from(1...1_000_000, "failed requests"), help: "Failed requests a client address may make at once.")
    package var addressFailureBurst = 60
    /// The most API connections open at once; one more is closed as it is accepted. 10,000 idle
    /// connections take about 100 MB (about 10 KB each); the process's file limit (`ulimit -n`) must be
    /// above it with room for the store's and the APNs client's connections.
    @Setting(
        "maxConnections", .from(1...1_000_000, "connections"),
        help: "Most API connections open at once; one more is closed as it is accepted (keep ulimit -n above it).")
    package var maximumConnections = 10_000
    /// Delivery workers claiming from the outbox; 0 accepts pushes without sending them.
    @Setting("workers", .from(0...1024), help: "Delivery workers (0: accept only, at most 1024).")
    package var workerCount = 8
    /// Items one worker claims at a time (sent concurrently).
    @Setting("batchSize", .from(1...10_000), help: "Pushes one worker claims at a time.")
    package var batchSize = 128
    /// The most connections the APNs client opens.
    @Setting("connections", .from(1...1000), help: "Most APNs connections.")
    package var apnsConnections = 4
    /// The most requests in flight on one APNs connection; with `apnsConnections`, the most in flight at
    /// once. A connection's CPU per push grows with its open streams, so the client keeps fewer than the
    /// 1,000 APNs allows and opens its next connection sooner.
    @Setting(
        "streamsPerConnection", .from(1...1000),
        help: "Most pushes in flight on one APNs connection (APNs allows about 1,000); times --connections, the most in flight.")
    package var apnsStreamsPerConnection = 100
    /// The APNs client's own re-sends within one outbox attempt: never a back-off, only at once on a new
    /// connection after the connection went away under the request, and once after renewing an expired
    /// provider token (``APNsRetryPolicy/Scope/reconnectOnly``). Whatever needs waiting comes back to the
    /// outbox, so the attempts of the two never compound.
    package var apnsRetry: APNsRetryPolicy = .reconnectOnly(maximumAttempts: 3)
    /// Priority-10 pushes per activity per hour before updates are downgraded to priority 5.
    @Setting("hourlyBudget", .atLeast(0), help: "Priority-10 pushes per activity per hour before downgrading to 5.")
    package var hourlyPriority10Budget = 24
    /// The same budget for activities whose app reported `frequentPushesEnabled`.
    @Setting("frequentHourlyBudget", .atLeast(0), help: "The same for activities with frequentPushesEnabled.")
    package var frequentHourlyPriority10Budget = 240
    /// Activities active this long are ended with their last content-state (Apple's limit is 8 h).
    @Setting("maxActiveDuration", .positive(), help: "End activities active this long with their last state.")
    package var maximumActiveDuration: TimeInterval = 8 * 3600
    /// Push-to-start requests per device (token) a renewal may use in `pushToStartWindow` seconds: a
    /// renewal over it fails with `pushToStartBudget` instead of sending a start the device would drop
    /// (field reports give about 10; Apple publishes no number).
    @Setting(
        "pushToStartBudget", .atLeast(1),
        help: "Push-to-start requests a renewal may send one device within --push-to-start-window; past it the renewal fails (1 or more).")
    package var pushToStartBudget = 10
    @Setting("pushToStartWindow", .positive(), help: "The window of --push-to-start-budget (more than 0 seconds).")
    package var pushToStartWindow: TimeInterval = 3600
    /// A push without an `expiration` is retried (and stored by APNs) this long after acceptance.
    @Setting("defaultExpiration", .positive(), help: "Retry window of a push without expiration.")
    package var defaultExpiration: TimeInterval = 3600
    /// How long an ended activity stays on the Lock Screen when no dismissal date was given.
    @Setting("defaultDismissalDelay", .notNegative, help: "Lock Screen time of an ended activity without dismissal date.")
    package var defaultDismissalDelay: TimeInterval = 4 * 3600
    /// Ended activities (with their history) are forgotten this long after their dismissal.
    @Setting("forgetAfter", .notNegative, help: "Forget ended activities this long after their dismissal.")
    package var forgetAfter: TimeInterval = 3600
    /// How often the lifecycle sweep (8-hour limit, renewals, forgetting) runs, in the server clock's
    /// seconds: a clock that runs faster than real time (a test's, the demo's) sweeps as much more often.
    @Setting("lifecycleInterval", .positive(), help: "How often the lifecycle sweep runs.")
    package var lifecycleInterval: TimeInterval = 60
    /// How long a claim holds before another worker (or instance) may take the item over.
    @Setting(
        "claimLease", Accepted("must be at least 1 second") { $0 >= 1 },
        help: "How long a worker's claim holds before another may take the push over (at least 1s).")
    package var claimLease: TimeInterval = 60
    /// How long an idle worker waits before looking at the outbox again. Pushes this process accepts wake
    /// a worker at once; the poll finds retries coming due and pushes other instances accepted.
    @Setting("pollInterval", .positive(atMost: 60), help: "How long an idle worker waits before looking at the outbox again (at most 60s).")
    package var pollInterval: TimeInterval = 1
    /// Back-off between outbox attempts: the base doubles per attempt up to the maximum
    /// (``outboxRetryDelay(afterAttempts:random:)``). The outbox is the one place that waits before
    /// sending a push again; APNs' reasons decide whether it does (`DeliveryDecision`).
    @Setting("retryBaseDelay", .notNegative, help: "Outbox back-off after a push's first failed send; doubles per send.")
    package var retryBaseDelay: TimeInterval = 1
    @Setting("retryMaxDelay", .notNegative, help: "The longest outbox back-off.")
    package var retryMaximumDelay: TimeInterval = 60
    /// How many delivery records `GET /v1/activities/{id}` returns.
    @Setting("historyLimit", .from(1...1000), help: "Deliveries GET /v1/activities/{id} returns (1 to 1000).")
    package var historyLimit = 50
    /// A connection must complete each request's header within this long of opening (or of the previous
    /// answer), else it is closed; an absolute deadline, so slowly trickled headers do not hold it open.
    @Setting(
        "requestHeaderTimeout", .positive(atMost: 3600),
        help: "Close a connection whose request header is not complete this long after it opened or was last answered.")
    package var requestHeaderTimeout: TimeInterval = 30
    /// And each request's body within this long of its header.
    @Setting(
        "requestBodyTimeout", .positive(atMost: 3600),
        help: "Close a connection whose request body is not complete this long after its header.")
    package var requestBodyTimeout: TimeInterval = 60
    /// A graceful shutdown (in-flight pushes, queued webhook events) that takes longer is cancelled.
    @Setting(
        "shutdownTimeout", .positive(atMost: 3600),
        help: "Longest graceful shutdown (in-flight pushes, queued webhook events) before it is cut short.")
    package var shutdownTimeout: TimeInterval = 30
    /// Where token-invalid and activity-ended events are POSTed as JSON; nil: no webhook (and no event
    /// is stored).
    @Setting(
        "webhookUrl", placeholder: "URL", help: "POST token.invalid and activity.ended events here as JSON.", defaultText: "none",
        parse: { raw, origin throws(ServerConfigurationError) in
            guard let url = URL(string: raw), url.host != nil else {
                throw origin.refusal(raw: raw, expected: "a URL; expected http(s)://host/path")
            }
            return url
        })
    package var webhookURL: URL? = nil
    /// The key of each POST's `LivePush-Signature` (HMAC-SHA256); required with a webhook, at least
    /// ``minimumWebhookSecretLength`` characters. Never logged.
    @Setting(
        "webhookSecret", sources: [.flag, .environment], placeholder: "SECRET",
        help: "Signs each webhook POST (LivePush-Signature, HMAC-SHA256); required with --webhook-url, 32 characters "
            + "or more, e.g. `openssl rand -hex 32`. Prefer the variable: flags show in ps.",
        isSecret: true,
        accepted: .secret(
            atLeast: ServerConfiguration.minimumWebhookSecretLength,
            "must have at least \(ServerConfiguration.minimumWebhookSecretLength) characters; make one with `openssl rand -hex 32`"))
    package var webhookSecret: String? = nil
    /// One webhook POST that has not answered within this long has failed (and is retried).
    @Setting("webhookTimeout", .positive(atMost: 300), help: "A webhook POST not answered this long has failed and is retried.")
    package var webhookTimeout: TimeInterval = 10
    /// An event not delivered this long after it happened is dropped (logged, counted).
    @Setting(
        "webhookMaxAge", .positive(),
        help: "A webhook event not delivered this long after it happened is dropped (retries back off to 5 min).")
    package var webhookMaximumAge: TimeInterval = 24 * 3600
    /// Back-off between webhook attempts: the base doubles per failed attempt up to the maximum, less
    /// up to half of it (jitter), like the outbox's.
    package var webhookRetryBaseDelay: TimeInterval = 1
    package var webhookRetryMaximumDelay: TimeInterval = 300
    /// Webhook POSTs in flight at once.
    package var webhookConcurrency = 8
    /// Lets the webhook POST to loopback, private, link-local, CGNAT, multicast and metadata addresses
    /// (``WebhookTargetPolicy``); off, such a target is refused. For development against a local receiver.
    @Setting(
        "webhookAllowPrivateTargets",
        help:
            "Let the webhook POST to loopback, private, link-local, CGNAT and metadata addresses (refused by default); for a local receiver in development."
    )
    package var webhookAllowPrivateTargets = false
    /// With a key, `GET /metrics` answers only `Authorization: Bearer <key>` (401 otherwise); nil: it is
    /// public, for a listener only the monitoring can reach. Never logged.
    @Setting(
        "metricsKey", sources: [.flag, .environment], placeholder: "KEY",
        help: "GET /metrics then needs 'Authorization: Bearer KEY' (32 characters or more); without it /metrics is public: "
            + "keep it off the internet (the reverse proxy's job).",
        defaultText: "none (public)", isSecret: true,
        accepted: Accepted("must have at least 32 characters, without spaces (e.g. `openssl rand -hex 32`)") { key in
            key.map { $0.utf8.count >= 32 && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } } ?? true
        })
    package var metricsKey: String? = nil
    /// `GET /metrics` also answers `Authorization: Bearer <operator key>` (and, without `metricsKey`,
    /// only that): the console's credential opens the metrics too.
    @Setting(
        "metricsOperator",
        help: "GET /metrics then takes an operator key (livepush keys create --scope operator) as its bearer credential, "
            + "besides --metrics-key if given.")
    package var metricsOperator = false
    /// Names this process's outbox claims; unique among running instances. Keep it stable across restarts
    /// (`--instance-id`) so a restarted process takes back the claims of its crashed predecessor at once
    /// instead of after the claim lease.
    @Setting(
        "instanceId", placeholder: "ID",
        help: "Names this process's outbox claims; keep it stable across restarts and unique among instances sharing a database.",
        defaultText: "livepush-HOST-PORT (random with port 0)",
        accepted: Accepted("must have 1 to 100 characters") { !$0.isEmpty && $0.count <= 100 }, parse: { raw, _ in raw })
    package var instanceID = "livepush-" + UUID().uuidString.prefix(8).lowercased()

    package init() {}

    /// The shortest webhook secret accepted (32 characters: 128 bits as hex, more as random text).
    package static let minimumWebhookSecretLength = 32

    /// The seconds to wait before the next outbox attempt of a push that has had `attempts` sends:
    /// `retryBaseDelay` doubled per send, at most `retryMaximumDelay`, less up to half of it (jitter;
    /// `random` is in 0...1).
    package func outboxRetryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        workers.outboxRetryDelay(afterAttempts: attempts, random: random)
    }

    /// The seconds to wait before the next attempt of a webhook event that has failed `attempts` times:
    /// the same rule with `webhookRetryBaseDelay` and `webhookRetryMaximumDelay`.
    package func webhookRetryDelay(afterAttempts attempts: Int, random: Double) -> TimeInterval {
        webhook.retryDelay(afterAttempts: attempts, random: random)
    }

    /// The APNs client of this server: its connection count and its reconnect-only policy; broadcast
    /// channels are managed on `channelManagementEndpoint` (default: Apple's management host of the
    /// environment, or the push host on port 2195 for a custom URL such as the simulator's).
    package func apnsClientConfiguration(
        endpoint: APNsEndpoint, additionalTrustRootFile: String? = nil, channelManagementEndpoint: APNsEndpoint? = nil
    ) -> APNsClientConfiguration {
        APNsClientConfiguration(
            endpoint: endpoint, channelManagementEndpoint: channelManagementEndpoint, additionalTrustRootFile: additionalTrustRootFile,
            maximumConnections: apnsConnections, maximumStreamsPerConnection: apnsStreamsPerConnection, retry: apnsRetry
        )
    }

    /// Checks the values: each against the values its field's ``Setting`` accepts, then the rules about
    /// several settings. The error names the setting (its key; two joined by "/" when the rule is about
    /// both) and what is accepted.
    package func validate() throws(ServerConfigurationError) {
        for setting in ServeSetting.declared(in: self) {
            if let rule = setting.refusal { throw ServerConfigurationError(setting: setting.declaration.key, rule: rule) }
        }
        func require(_ condition: Bool, _ setting: String, _ rule: String) throws(ServerConfigurationError) {
            if !condition { throw ServerConfigurationError(setting: setting, rule: rule) }
        }
        try require(retryMaximumDelay >= retryBaseDelay, "retryBaseDelay/retryMaxDelay", "must be 0 or more, the maximum at least the base")
        try require(
            webhookRetryBaseDelay >= 0 && webhookRetryMaximumDelay >= webhookRetryBaseDelay, "webhookRetryBaseDelay/webhookRetryMaxDelay",
            "must be 0 or more, the maximum at least the base")
        try require((1...256).contains(webhookConcurrency), "webhookConcurrency", "must be 1 to 256")
        if let webhookURL {
            try require(["http", "https"].contains(webhookURL.scheme ?? ""), "webhookUrl", "must be an http or https URL")
            try require(
                webhookSecret != nil, "webhookSecret",
                "is required with a webhook URL: each POST is signed with it (LivePush-Signature) so the receiver "
                    + "can check it came from this server; make one with `openssl rand -hex 32` and give it to "
                    + "both (--webhook-secret or $LIVEPUSH_WEBHOOK_SECRET)")
            if !webhookAllowPrivateTargets, let host = webhookURL.host, let range = WebhookTargetPolicy.literalRefusal(host: host) {
                throw ServerConfigurationError(
                    setting: "webhookUrl",
                    rule: "'\(host)' is a \(range) address: webhook POSTs there are refused, so that the server cannot be "
                        + "made to reach its own network; give a public host, or set --webhook-allow-private-targets "
                        + "(LIVEPUSH_WEBHOOK_ALLOW_PRIVATE_TARGETS) for development against a local receiver")
            }
        }
        for key in appKeys + backendKeys + operatorKeys {
            try require(key.count >= 16, "appKey/backendKey/operatorKey", "development keys must have at least 16 characters")
        }
    }
}

/// A configuration value that is out of range, malformed, or given where it cannot be.
package struct ServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, or where its value came from (`--port`, `$LIVEPUSH_PORT`, `'port' in FILE`); empty
    /// when the rule says it all.
    package var setting: String
    package var rule: String
    /// The command line itself is wrong (an unknown flag, a flag without its value): show the usage.
    package var isUsageError: Bool

    package init(setting: String, rule: String, isUsageError: Bool = false) {
        self.setting = setting
        self.rule = rule
        self.isUsageError = isUsageError
    }

    package var description: String { setting.isEmpty ? rule : "\(setting) \(rule)" }
}
