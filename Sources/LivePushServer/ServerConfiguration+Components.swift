/// The settings each component reads, cut from the whole configuration: the composition root
/// (`LivePushServer`) builds them, and no component but the root sees `ServerConfiguration`.
extension ServerConfiguration {
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
            instanceID: instanceID, historyLimit: historyLimit, priorityBudget: priorityBudget)
    }
}
