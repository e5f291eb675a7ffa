/// The settings each component reads, cut from the whole configuration: the composition root
/// (`LivePushServer`) builds them, and no component but the root sees `ServerConfiguration`.
extension ServerConfiguration {
    var listener: ListenerSettings {
        ListenerSettings(
            host: host, port: port, maximumConnections: maximumConnections, requestHeaderTimeout: requestHeaderTimeout,
            requestBodyTimeout: requestBodyTimeout, shutdownTimeout: shutdownTimeout)
    }

    var rateLimits: RateLimits {
        RateLimits(
            app: .init(perMinute: appRateLimit, burst: appRateBurst),
            installations: .init(perMinute: installationRateLimit, burst: installationRateBurst),
            backend: .init(perMinute: backendRateLimit, burst: backendRateBurst),
            operator: .init(perMinute: operatorRateLimit, burst: operatorRateBurst),
            addressFailures: .init(perMinute: addressFailureLimit, burst: addressFailureBurst))
    }

    var tokenLifetimes: TokenLifetimes {
        TokenLifetimes(user: appTokenLifetime, installation: installationTokenLifetime)
    }

    var activities: ActivitySettings {
        ActivitySettings(
            environment: environment, defaultDismissalDelay: defaultDismissalDelay, historyLimit: historyLimit,
            maximumActiveDuration: maximumActiveDuration)
    }

    var console: ConsoleSettings {
        ConsoleSettings(
            instanceID: instanceID, historyLimit: historyLimit, hourlyPriority10Budget: hourlyPriority10Budget,
            frequentHourlyPriority10Budget: frequentHourlyPriority10Budget)
    }
}
