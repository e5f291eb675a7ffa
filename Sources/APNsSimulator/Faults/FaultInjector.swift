import APNsCore
import Synchronization

/// The injected faults of the simulated APNs: error answers, latency, GOAWAY and connection resets, for a
/// share of requests, globally or for one token. Safe to use from any thread.
public final class FaultInjector: Sendable {
    private struct State {
        var rules: [FaultEntry] = []
        var nextID = 1
        var random: SeededRandom
        /// How many requests each rule applied to, by id.
        var applied: [Int: Int] = [:]
    }

    private let state: Mutex<State>

    /// `seed` makes the share draws reproducible; nil seeds from the system generator.
    public init(seed: UInt64? = nil) {
        var system = SystemRandomNumberGenerator()
        state = Mutex(State(random: SeededRandom(seed: seed ?? system.next())))
    }

    /// Checks a rule and returns it normalized: the status derived from a known reason, the token lowercase.
    public static func validate(_ rule: FaultRule) throws(FaultRuleError) -> FaultRule {
        var rule = rule
        guard rule.share.isFinite, (0...1).contains(rule.share) else { throw .shareOutOfRange(rule.share) }
        if let reason = rule.reason, reason.isEmpty { throw .emptyReason }
        if let status = rule.status {
            guard (400...599).contains(status) else { throw .statusNotAnError(status) }
            guard rule.reason != nil else { throw .statusWithoutReason(status) }
        } else if let reason = rule.reason, rule.goAwayAfterStreams == nil {
            // A reason alone is an error answer when the reason is known (its status follows); with
            // goAwayAfterStreams and no status it is the GOAWAY reason.
            let known = APNsReason(rawValue: reason)
            if case .other = known { throw .reasonWithoutStatus(reason) }
            rule.status = known.status
        }
        if let ms = rule.latencyMilliseconds {
            guard ms >= 0 else { throw .negativeLatency(ms) }
            guard ms <= FaultRuleError.maximumLatencyMilliseconds else { throw .latencyTooLong(ms) }
        }
        if let count = rule.goAwayAfterStreams, count < 1 { throw .goAwayAfterNotPositive(count) }
        if rule.resetConnection == true, rule.status != nil { throw .resetWithStatus }
        let doesSomething =
            rule.status != nil || (rule.latencyMilliseconds ?? 0) > 0
            || rule.goAwayAfterStreams != nil || rule.resetConnection == true
        guard doesSomething else { throw .nothingToDo }
        if let token = rule.token {
            do {
                rule.token = try DeviceToken(hex: token).hex
            } catch {
                throw .badToken(error.description)
            }
        }
        return rule
    }

    /// Adds a rule; returns its id.
    @discardableResult
    public func add(_ rule: FaultRule) throws(FaultRuleError) -> Int {
        let rule = try Self.validate(rule)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.rules.append(FaultEntry(id: id, rule: rule))
            return id
        }
    }

    /// Removes a rule. Returns false when no rule has this id.
    @discardableResult
    public func remove(id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.id == id }) else { return false }
            state.rules.remove(at: index)
            return true
        }
    }

    /// Removes every rule.
    public func removeAll() {
        state.withLock { $0.rules.removeAll() }
    }

    /// How many requests the rule `id` has applied to so far (counted as each request arrives, before a
    /// latency it adds): a test can wait for requests the simulator is holding.
    public func applications(of id: Int) -> Int {
        state.withLock { $0.applied[id] ?? 0 }
    }

    /// The rules in the order they were added.
    public func rules() -> [FaultEntry] {
        state.withLock { $0.rules }
    }

    /// Decides the faults for one request to `token` (lowercase hex from the path; nil when it has none).
    /// Each matching rule applies with its share, drawn once per request; for each kind of fault the
    /// earliest applying rule wins (latencies add up).
    public func decide(token: String?) -> FaultDecision {
        state.withLock { state in
            guard !state.rules.isEmpty else { return .none }
            var decision = FaultDecision()
            for entry in state.rules {
                let rule = entry.rule
                if let only = rule.token, only != token { continue }
                if rule.share < 1, state.random.nextUnit() >= rule.share { continue }
                state.applied[entry.id, default: 0] += 1
                if decision.response == nil, let status = rule.status, let reason = rule.reason {
                    decision.response = FaultResponse(status: status, reason: reason)
                }
                decision.latencyMilliseconds += rule.latencyMilliseconds ?? 0
                if rule.resetConnection == true { decision.resetConnection = true }
                if decision.goAway == nil, let count = rule.goAwayAfterStreams {
                    decision.goAway = GoAwayFault(afterStreams: count, reason: rule.reason ?? APNsReason.shutdown.rawValue)
                }
            }
            return decision
        }
    }
}
