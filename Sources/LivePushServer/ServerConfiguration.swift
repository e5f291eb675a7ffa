import APNsClient
import APNsCore
import Foundation

/// Everything the provider server can be told, with its defaults. `livepush serve` fills it from flags,
/// environment variables and a JSON file (``ServeSettings``, declared in ``ServeSetting/all``).
package struct ServerConfiguration: Sendable {
    /// The address the HTTP API listens on.
    package var host = "127.0.0.1"
    /// The HTTP port; 0 picks a free one (tests).
    package var port = 8080
    /// The APNs environment the server sends to, when known: registrations for the other one are refused.
    package var environment: APNsEnvironment?
    /// Delivery workers claiming from the outbox; 0 accepts pushes without sending them.
    package var workerCount = 8
    /// Items one worker claims at a time (sent concurrently).
    package var batchSize = 128
    /// How long a claim holds before another worker (or instance) may take the item over.
    package var claimLease: TimeInterval = 60
    /// How long an idle worker waits before looking at the outbox again. Pushes this process accepts wake
    /// a worker at once; the poll finds retries coming due and pushes other instances accepted.
    package var pollInterval: TimeInterval = 1
    /// Back-off between outbox attempts: the base doubles per attempt up to the maximum
    /// (``outboxRetryDelay(afterAttempts:random:)``). The outbox is the one place that waits before
    /// sending a push again; APNs' reasons decide whether it does (`DeliveryDecision`).
    package var retryBaseDelay: TimeInterval = 1
    package var retryMaximumDelay: TimeInterval = 60
    /// The most connections the APNs client opens.
    package var apnsConnections = 4
    /// The APNs client's own re-sends within one outbox attempt: never a back-off, only at once on a new
    /// connection after the connection went away under the request, and once after renewing an expired
    /// provider token (``APNsRetryPolicy/Scope/reconnectOnly``). Whatever needs waiting comes back to the
    /// outbox, so the attempts of the two never compound.
    package var apnsRetry: APNsRetryPolicy = .reconnectOnly(maximumAttempts: 3)
    /// A push without an `expiration` is retried (and stored by APNs) this long after acceptance.
    package var defaultExpiration: TimeInterval = 3600
    /// Priority-10 pushes per activity per hour before updates are downgraded to priority 5.
    package var hourlyPriority10Budget = 24
    /// The same budget for activities whose app reported `frequentPushesEnabled`.
    package var frequentHourlyPriority10Budget = 240
    /// Activities active this long are ended with their last content-state (Apple's limit is 8 h).
    package var maximumActiveDuration: TimeInterval = 8 * 3600
    /// How long an ended activity stays on the Lock Screen when no dismissal date was given.
    package var defaultDismissalDelay: TimeInterval = 4 * 3600
    /// Ended activities (with their history) are forgotten this long after their dismissal.
    package var forgetAfter: TimeInterval = 3600
    /// Push-to-start requests per device (token) a renewal may use in `pushToStartWindow` seconds: a
    /// renewal over it fails with `pushToStartBudget` instead of sending a start the device would drop
    /// (field reports give about 10; Apple publishes no number).
    package var pushToStartBudget = 10
    package var pushToStartWindow: TimeInterval = 3600
    /// How often the lifecycle sweep (8-hour limit, renewals, forgetting) runs, in the server clock's
    /// seconds: a clock that runs faster than real time (a test's, the demo's) sweeps as much more often.
    package var lifecycleInterval: TimeInterval = 60
    /// Where token-invalid and activity-ended events are POSTed as JSON; nil: no webhook (and no event
    /// is stored).
    package var webhookURL: URL?
    /// The key of each POST's `LivePush-Signature` (HMAC-SHA256); required with a webhook, at least
    /// ``minimumWebhookSecretLength`` characters. Never logged.
    package var webhookSecret: String?
    /// One webhook POST that has not answered within this long has failed (and is retried).
    package var webhookTimeout: TimeInterval = 10
    /// An event not delivered this long after it happened is dropped (logged, counted).
    package var webhookMaximumAge: TimeInterval = 24 * 3600
    /// Back-off between webhook attempts: the base doubles per failed attempt up to the maximum, less
    /// up to half of it (jitter), like the outbox's.
    package var webhookRetryBaseDelay: TimeInterval = 1
    package var webhookRetryMaximumDelay: TimeInterval = 300
    /// Webhook POSTs in flight at once.
    package var webhookConcurrency = 8
    /// Lets the webhook POST to loopback, private, link-local, CGNAT, multicast and metadata addresses
    /// (``WebhookTargetPolicy``); off, such a target is refused. For development against a local receiver.
    package var webhookAllowPrivateTargets = false
    /// Development API keys accepted besides the stored ones (never stored or logged).
    package var appKeys: [String] = []
    package var backendKeys: [String] = []
    /// Development operator keys (the console's scope), for tests and local use.
    package var operatorKeys: [String] = []
    /// Signs app tokens (HMAC-SHA256, at least 32 characters); nil: a random key kept in the store, which
    /// every instance on the database shares. Changing it invalidates every token issued before.
    package var appTokenSecret: String?
    /// How long a user token lives when the backend does not say (60 s to 7 days).
    package var appTokenLifetime: TimeInterval = 3600
    /// How long an installation token lives (1 hour to 90 days); the app renews it before then
    /// (`POST /v1/installations/{installationId}/token`), else opens a new installation.
    package var installationTokenLifetime: TimeInterval = 30 * 86_400
    /// Requests per minute each app principal (user, installation, app key) may make on the app routes,
    /// with bursts up to `appRateBurst` at once; 0: no limit. Development app keys are not limited.
    package var appRateLimit = 120
    package var appRateBurst = 30
    /// The same per key on the backend routes (development backend keys included).
    package var backendRateLimit = 60_000
    package var backendRateBurst = 2000
    /// The same per operator key on the console's routes: the console polls one or two routes every 2 s
    /// per open tab, so 600 a minute with bursts of 120 leave room for a few tabs and paging.
    package var operatorRateLimit = 600
    package var operatorRateBurst = 120
    /// Requests per minute, and at once, of all the installations one app key opened, together (each is
    /// also held to `appRateLimit`); 0: no shared limit. Anyone with the app key can open installations,
    /// so without it their number would multiply the limit. 100 a second covers an app whose installations
    /// each make a few requests per Live Activity with a large installed base; raise it for more, and
    /// prefer user tokens (each user has its own budget) where the app has accounts.
    package var installationRateLimit = 6_000
    package var installationRateBurst = 600
    /// Failed requests (401, 403; no credential) per minute, and at once, of one client address (IPv6:
    /// per /64) before every request from it is answered 429 without its credential being looked up; 0:
    /// no limit. Clients that authenticate never spend it: it is generous for many app users behind one
    /// carrier NAT whose tokens expire, and stops a client trying keys after 60.
    package var addressFailureLimit = 120
    package var addressFailureBurst = 60
    /// The most API connections open at once; one more is closed as it is accepted. 10,000 idle
    /// connections take about 100 MB (about 10 KB each); the process's file limit (`ulimit -n`) must be
    /// above it with room for the store's and the APNs client's connections.
    package var maximumConnections = 10_000
    /// With a key, `GET /metrics` answers only `Authorization: Bearer <key>` (401 otherwise); nil: it is
    /// public, for a listener only the monitoring can reach. Never logged.
    package var metricsKey: String?
    /// `GET /metrics` also answers `Authorization: Bearer <operator key>` (and, without `metricsKey`,
    /// only that): the console's credential opens the metrics too.
    package var metricsOperator = false
    /// How many delivery records `GET /v1/activities/{id}` returns.
    package var historyLimit = 50
    /// Names this process's outbox claims; unique among running instances. Keep it stable across restarts
    /// (`--instance-id`) so a restarted process takes back the claims of its crashed predecessor at once
    /// instead of after the claim lease.
    package var instanceID = "livepush-" + UUID().uuidString.prefix(8).lowercased()
    /// A connection must complete each request's header within this long of opening (or of the previous
    /// answer), else it is closed; an absolute deadline, so slowly trickled headers do not hold it open.
    package var requestHeaderTimeout: TimeInterval = 30
    /// And each request's body within this long of its header.
    package var requestBodyTimeout: TimeInterval = 60
    /// A graceful shutdown (in-flight pushes, queued webhook events) that takes longer is cancelled.
    package var shutdownTimeout: TimeInterval = 30

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
        workers.webhookRetryDelay(afterAttempts: attempts, random: random)
    }

    /// The APNs client of this server: its connection count and its reconnect-only policy; broadcast
    /// channels are managed on `channelManagementEndpoint` (default: Apple's management host of the
    /// environment, or the push host on port 2195 for a custom URL such as the simulator's).
    package func apnsClientConfiguration(
        endpoint: APNsEndpoint, additionalTrustRootFile: String? = nil, channelManagementEndpoint: APNsEndpoint? = nil
    ) -> APNsClientConfiguration {
        APNsClientConfiguration(
            endpoint: endpoint, channelManagementEndpoint: channelManagementEndpoint, additionalTrustRootFile: additionalTrustRootFile,
            maximumConnections: apnsConnections, retry: apnsRetry
        )
    }

    /// Checks the values: each against the values its declaration accepts (``ServeSetting/all``), then the
    /// rules about several settings. The error names the setting (its ``ServeSetting`` key; two joined by
    /// "/" when the rule is about both) and what is accepted.
    package func validate() throws(ServerConfigurationError) {
        var settings = ServeSettings()
        settings.server = self
        for setting in ServeSetting.all {
            if let rule = setting.refusal(settings) { throw ServerConfigurationError(setting: setting.key, rule: rule) }
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
