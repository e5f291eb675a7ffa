import APNsCore

/// One answer of a batch's round: the answer or typed error, when it came, and the connection it came
/// from (nil when no connection took the request).
struct BatchAnswer: Sendable {
    var result: Result<WireResponse, APNsClientError>
    var answeredAt: ContinuousClock.Instant
    var connectionID: Int?
}

/// One push of a batch on its way through the rounds.
struct BatchPush {
    /// Its place in the batch.
    let position: Int
    var attempts = 0
    var tokenRenewed = false
    /// The connection it must not go to again (the one that went away under it).
    var avoided: Int?
    var dueAt: ContinuousClock.Instant
    var last: Result<APNsResponse, APNsClientError>?
}

/// The retry rounds of one batch: which pushes go in the next round and when, and each push's final
/// outcome. Pushes retried after a back-off wait together: a round goes when its earliest push is due
/// and takes every push due by then.
struct BatchRounds {
    private var finals: [APNsDeliveryOutcome?]
    private var waiting: [BatchPush]
    private let started: ContinuousClock.Instant
    /// The provider token the next round sends.
    var jwt: String?

    init(count: Int, started: ContinuousClock.Instant, jwt: String?) {
        self.finals = Array(repeating: nil, count: count)
        self.waiting = (0..<count).map { BatchPush(position: $0, dueAt: started) }
        self.started = started
        self.jwt = jwt
    }

    /// Every push's final outcome, in the batch's order (once `nextDue` has returned nil).
    var outcomes: [APNsDeliveryOutcome] {
        finals.map { $0 ?? APNsDeliveryOutcome(result: .failure(.shutDown), attempts: 0, duration: .zero) }
    }

    /// The pushes of the next round, once the earliest of them is due; nil when every push has its final
    /// outcome, or when the task is cancelled before a retry (the pushes still waiting keep their last
    /// answer as their outcome).
    mutating func nextDue() async -> [BatchPush]? {
        while !waiting.isEmpty {
            if Task.isCancelled && waiting.allSatisfy({ $0.attempts > 0 }) {
                for push in waiting { finish(push, answeredAt: .now) }
                waiting = []
                return nil
            }
            let now = ContinuousClock.now
            var due: [BatchPush] = []
            var later: [BatchPush] = []
            for push in waiting {
                if push.dueAt <= now { due.append(push) } else { later.append(push) }
            }
            if !due.isEmpty {
                waiting = later
                return due
            }
            let earliest = later.map(\.dueAt).min() ?? now
            try? await Task.sleep(until: earliest, clock: .continuous)
        }
        return nil
    }

    /// What became of `push` in its round: final, or waiting for a later round.
    mutating func record(
        _ push: BatchPush, result: Result<APNsResponse, APNsClientError>, answer: BatchAnswer, decision: APNsRetryPolicy.Decision
    ) {
        var push = push
        push.attempts += 1
        push.last = result
        switch decision {
        case .stop:
            finish(push, answeredAt: answer.answeredAt)
        case .retryWithNewProviderToken:
            push.tokenRenewed = true
            push.dueAt = answer.answeredAt
            waiting.append(push)
        case .retry(let delay, let newConnection):
            push.avoided = newConnection ? answer.connectionID : nil
            push.dueAt = answer.answeredAt + .milliseconds(Int(delay * 1000))
            waiting.append(push)
        }
    }

    private mutating func finish(_ push: BatchPush, answeredAt: ContinuousClock.Instant) {
        let result = push.last ?? .failure(.connectionClosed(processed: false, detail: "not sent: the task was cancelled"))
        finals[push.position] = APNsDeliveryOutcome(result: result, attempts: push.attempts, duration: answeredAt - started)
    }
}
