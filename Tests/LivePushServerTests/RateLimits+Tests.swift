import LivePushServer

/// Whose requests a rate limit counts.
enum RateLimited {
    case app, backend, `operator`, installation
}

extension ServerConfiguration {
    /// Lets `principal` make `burst` requests at once, then one a minute: nothing refills during a test,
    /// however slow the machine.
    mutating func allowBurst(_ burst: Int, for principal: RateLimited) {
        switch principal {
        case .app: (appRateLimit, appRateBurst) = (1, burst)
        case .backend: (backendRateLimit, backendRateBurst) = (1, burst)
        case .operator: (operatorRateLimit, operatorRateBurst) = (1, burst)
        case .installation: (installationRateLimit, installationRateBurst) = (1, burst)
        }
    }
}
