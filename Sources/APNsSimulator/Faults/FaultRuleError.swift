/// Why a fault rule was refused, naming the field and the accepted values.
public enum FaultRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    case shareOutOfRange(Double)
    case statusWithoutReason(Int)
    case statusNotAnError(Int)
    case reasonWithoutStatus(String)
    case emptyReason
    case negativeLatency(Int)
    case latencyTooLong(Int)
    case goAwayAfterNotPositive(Int)
    case resetWithStatus
    case nothingToDo
    case badToken(String)

    /// The longest added latency accepted, in milliseconds (10 minutes).
    public static let maximumLatencyMilliseconds = 600_000

    public var description: String {
        switch self {
        case .shareOutOfRange(let share):
            return "share \(share) is outside 0...1; give the fraction of matching requests the fault applies to (1 = all)"
        case .statusWithoutReason(let status):
            return "status \(status) has no reason; APNs always sends a reason with an error status (e.g. reason \"ServiceUnavailable\")"
        case .statusNotAnError(let status):
            return "status \(status) is not an error status; a fault answers with a 4xx or 5xx status (400...599)"
        case .reasonWithoutStatus(let reason):
            return "reason \"\(reason)\" is not a known APNs reason, so its status cannot be derived; give a status (400...599) too"
        case .emptyReason:
            return "reason is empty; give an APNs reason string such as \"InternalServerError\""
        case .negativeLatency(let ms):
            return "latencyMilliseconds \(ms) is negative; give 0...\(Self.maximumLatencyMilliseconds)"
        case .latencyTooLong(let ms):
            return "latencyMilliseconds \(ms) is over \(Self.maximumLatencyMilliseconds) (10 minutes); give 0...\(Self.maximumLatencyMilliseconds)"
        case .goAwayAfterNotPositive(let count):
            return "goAwayAfterStreams \(count) must be 1 or more (the number of streams a connection serves before GOAWAY)"
        case .resetWithStatus:
            return "resetConnection and status exclude each other: a reset closes the connection instead of answering"
        case .nothingToDo:
            return "the rule does nothing; give at least one of status+reason, latencyMilliseconds, goAwayAfterStreams or resetConnection"
        case .badToken(let detail):
            return "token: \(detail)"
        }
    }
}
