import APNsCore
import Foundation

extension APNsClient {
    /// Delivers a page of pushes and returns their final outcomes in the page's order, with the retries,
    /// per-request deadlines and GOAWAY recovery of ``deliver(_:)``, but without a Swift task per push.
    ///
    /// The page is spread over the pool's connections by their free streams; each connection's event loop
    /// writes its share's frames together (flushed in chunks) and resumes the caller once for the share.
    /// Pushes the policy retries go again together, in rounds: those refused by a GOAWAY or a closed
    /// connection at once on another connection, those answered 429 or 5xx after their back-off, one
    /// provider token renewal after `ExpiredProviderToken`, none past its `apns-expiration`. Each
    /// outcome's `duration` runs from this call to its last answer.
    ///
    /// ```swift
    /// let outcomes = await client.deliver(batch: requests)
    /// let refused = zip(requests, outcomes).filter { !$0.1.isAccepted }
    /// ```
    ///
    /// - Parameter requests: the pushes, each with its own token, payload and headers; commonly one
    ///   topic, push type and priority.
    /// - Returns: one outcome per request, in the order of `requests`. A push no provider key covers
    ///   (a client made with a keyring) fails with `APNsClientError.noProviderKey` without being sent.
    public func deliver(batch requests: [APNsRequest]) async -> [APNsDeliveryOutcome] {
        guard !requests.isEmpty else { return [] }
        // A page of one is one push: the single path does the same with less bookkeeping (one in flight
        // at a time, `livepush send --count N` without --concurrency, spends measurably less CPU on it).
        if requests.count == 1 { return [await deliver(requests[0])] }
        var outcomes = [APNsDeliveryOutcome?](repeating: nil, count: requests.count)
        // Positions of the page per lane (one lane unless the client has a keyring).
        var byLane: [Int: [Int]] = [:]
        if keyring == nil {
            byLane[0] = Array(requests.indices)
        } else {
            var laneOfTopic: [String: Result<Int, APNsClientError>] = [:]
            for (position, request) in requests.enumerated() {
                let topic = request.headers.topic
                let found = laneOfTopic[topic] ?? laneIndex(forTopic: topic)
                laneOfTopic[topic] = found
                switch found {
                case .success(let lane): byLane[lane, default: []].append(position)
                case .failure(let error): outcomes[position] = APNsDeliveryOutcome(result: .failure(error), attempts: 0, duration: .zero)
                }
            }
        }
        let started = ContinuousClock.now
        let parts = byLane.sorted { $0.key < $1.key }
        let delivered: [(positions: [Int], outcomes: [APNsDeliveryOutcome])]
        if parts.count == 1, let (lane, positions) = parts.first {
            delivered = [(positions, await deliver(batch: positions.map { requests[$0] }, on: lanes[lane], started: started))]
        } else {
            delivered = await withTaskGroup(of: (positions: [Int], outcomes: [APNsDeliveryOutcome]).self) { group in
                for (lane, positions) in parts {
                    let part = positions.map { requests[$0] }
                    group.addTask { (positions, await self.deliver(batch: part, on: self.lanes[lane], started: started)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        for (positions, laneOutcomes) in delivered {
            for (position, outcome) in zip(positions, laneOutcomes) { outcomes[position] = outcome }
        }
        return outcomes.map { $0 ?? APNsDeliveryOutcome(result: .failure(.shutDown), attempts: 0, duration: .zero) }
    }

    /// The index in `lanes` of the lane whose key signs pushes to `topic`.
    private func laneIndex(forTopic topic: String) -> Result<Int, APNsClientError> {
        do {
            let lane = try lane(forTopic: topic)
            return .success(lanes.firstIndex { $0.keyID == lane.keyID } ?? 0)
        } catch {
            return .failure(error)
        }
    }

    /// The pushes of one lane, in rounds until each has its final outcome.
    private func deliver(batch requests: [APNsRequest], on lane: KeyLane, started: ContinuousClock.Instant) async -> [APNsDeliveryOutcome] {
        let wires = requests.map(WireRequest.init)
        let deadlines: [Date?] = requests.map { if case .at(let date) = $0.headers.expiration { date } else { nil } }
        var rounds = BatchRounds(count: requests.count, started: started, jwt: lane.tokens?.currentJWT())
        while let due = await rounds.nextDue() {
            let answers = await attempt(batch: due.map { wires[$0.position] }, avoiding: due.map(\.avoided), on: lane.pool, authorization: rounds.jwt)
            let decidedAt = Date()
            var tokenExpired = false
            for (push, answer) in zip(due, answers) {
                let result = answer.result.map(\.apnsResponse)
                // An accepted push is final whatever the policy (`decide` stops on it): no clock, no random
                // number (a getrandom system call on Linux) for the common case.
                if case .success(let response) = result, response.status == 200 {
                    rounds.record(push, result: result, answer: answer, decision: .stop)
                    continue
                }
                let attemptResult: APNsRetryPolicy.AttemptResult =
                    switch result {
                    case .success(let response): .answered(response)
                    case .failure(let error): .failed(error)
                    }
                let decision = configuration.retry.decide(
                    after: attemptResult, attempt: push.attempts + 1, tokenRenewed: push.tokenRenewed, now: decidedAt,
                    deadline: deadlines[push.position], random: Double.random(in: 0..<1))
                if decision == .retryWithNewProviderToken { tokenExpired = true }
                if case .retry(let delay, _) = decision {
                    logger.debug(
                        "retrying request",
                        metadata: [
                            "subject": "\(requests[push.position].token.shortened)", "attempt": "\(push.attempts + 1)", "delay": "\(delay)",
                            "after": "\(Self.summary(answer.result))",
                        ])
                }
                rounds.record(push, result: result, answer: answer, decision: decision)
            }
            if tokenExpired, let tokens = lane.tokens, let rejected = rounds.jwt {
                rounds.jwt = tokens.renewJWT(rejected: rejected)
                logger.info("provider token expired; renewed it and retrying", metadata: ["pushes": "\(answers.count)"])
            } else {
                rounds.jwt = lane.tokens?.currentJWT() ?? rounds.jwt
            }
        }
        return rounds.outcomes
    }

    /// One attempt for each request of a round: spread over the pool's connections (apart from the one a
    /// request must avoid), a share per connection, shares sent side by side. Counted in the metrics as
    /// single attempts are.
    private func attempt(
        batch requests: [WireRequest], avoiding: [Int?], on pool: ConnectionPool, authorization jwt: String?
    ) async -> [BatchAnswer] {
        let sentAt = ContinuousClock.now
        let authorization = jwt.map { "bearer \($0)" }
        var groups: [Int?: [Int]] = [:]
        for (position, avoided) in avoiding.enumerated() { groups[avoided, default: []].append(position) }
        var shares: [(connection: APNsConnection, positions: ArraySlice<Int>)] = []
        var answers = [BatchAnswer?](repeating: nil, count: requests.count)
        for (avoided, positions) in groups {
            do {
                var next = positions.startIndex
                for share in try await pool.shares(for: positions.count, avoiding: avoided) {
                    shares.append((share.connection, positions[next..<next + share.count]))
                    next += share.count
                }
            } catch {
                let failed = BatchAnswer(result: .failure(error), answeredAt: .now, connectionID: nil)
                for position in positions { answers[position] = failed }
            }
        }
        if shares.count == 1, let share = shares.first {
            let sent = await share.connection.execute(
                batch: share.positions.map { requests[$0] }, authorization: authorization, timeout: configuration.requestTimeout)
            for (position, answer) in zip(share.positions, sent) {
                answers[position] = BatchAnswer(result: answer.result, answeredAt: answer.answeredAt, connectionID: share.connection.id)
            }
        } else if !shares.isEmpty {
            let timeout = configuration.requestTimeout
            let sent = await withTaskGroup(of: (share: Int, answers: [ConnectionAnswer]).self) { group in
                for (index, share) in shares.enumerated() {
                    let part = share.positions.map { requests[$0] }
                    group.addTask { (index, await share.connection.execute(batch: part, authorization: authorization, timeout: timeout)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (index, shareAnswers) in sent {
                let share = shares[index]
                for (position, answer) in zip(share.positions, shareAnswers) {
                    answers[position] = BatchAnswer(result: answer.result, answeredAt: answer.answeredAt, connectionID: share.connection.id)
                }
            }
        }
        let complete = answers.map { $0 ?? BatchAnswer(result: .failure(.shutDown), answeredAt: .now, connectionID: nil) }
        recordAttempts(complete, sentAt: sentAt)
        return complete
    }
}
