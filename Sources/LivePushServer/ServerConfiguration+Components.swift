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

    /// The priority-10 budget as configured.
    var priorityBudget: PriorityBudgetRule {
        PriorityBudgetRule(hourly: hourlyPriority10Budget, frequentHourly: frequentHourlyPriority10Budget)
    }

    /// The push-to-start budget per device as configured.
    var pushToStartBudgetRule: PushToStartBudgetRule {
        PushToStartBudgetRule(budget: pushToStartBudget, window: pushToStartWindow)
    }

    var pushes: PushSettings {
        PushSettings(
            defaultExpiration: defaultExpiration, defaultDismissalDelay: defaultDismissalDelay, workerCount: workerCount,
            priorityBudget: priorityBudget, pushToStartBudget: pushToStartBudgetRule)
    }

    var workers: WorkerSettings {
        WorkerSettings(
            instanceID: instanceID, workerCount: workerCount, batchSize: batchSize, claimLease: claimLease, pollInterval: pollInterval,
            outboxRetry: BackOff(base: retryBaseDelay, maximum: retryMaximumDelay), priorityBudget: priorityBudget,
            pushToStartBudget: pushToStartBudgetRule, webhook: webhook,
            lifecycle: LifecycleSettings(interval: lifecycleInterval, maximumActiveDuration: maximumActiveDuration, forgetAfter: forgetAfter))
    }

    var webhook: WebhookSettings {
        WebhookSettings(
            url: webhookURL, secret: webhookSecret, timeout: webhookTimeout, maximumAge: webhookMaximumAge,
            retry: BackOff(base: webhookRetryBaseDelay, maximum: webhookRetryMaximumDelay), concurrency: webhookConcurrency,
            allowPrivateTargets: webhookAllowPrivateTargets)
    }
}
