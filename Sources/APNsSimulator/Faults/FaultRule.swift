/// An injected fault: applies to a share of requests, globally or for one token.
public struct FaultRule: Sendable, Hashable, Codable {
    /// Answer with this status and reason instead of processing the request.
    public var status: Int?
    public var reason: String?
    /// The share of matching requests the fault applies to, 0...1.
    public var share: Double
    /// Delay the answer by this many milliseconds.
    public var latencyMilliseconds: Int?
    /// Send GOAWAY after this many streams on each connection.
    public var goAwayAfterStreams: Int?
    /// Close the TCP connection abruptly (no GOAWAY) instead of answering.
    public var resetConnection: Bool?
    /// Only for requests to this token (nil: every request).
    public var token: String?

    public init(
        status: Int? = nil, reason: String? = nil, share: Double = 1, latencyMilliseconds: Int? = nil,
        goAwayAfterStreams: Int? = nil, resetConnection: Bool? = nil, token: String? = nil
    ) {
        self.status = status
        self.reason = reason
        self.share = share
        self.latencyMilliseconds = latencyMilliseconds
        self.goAwayAfterStreams = goAwayAfterStreams
        self.resetConnection = resetConnection
        self.token = token
    }

    private enum CodingKeys: String, CodingKey {
        case status, reason, share, latencyMilliseconds, goAwayAfterStreams, resetConnection, token
    }

    /// Decodes a rule; `share` may be left out and then means every matching request (as `--fault-share`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decodeIfPresent(Int.self, forKey: .status),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            share: try container.decodeIfPresent(Double.self, forKey: .share) ?? 1,
            latencyMilliseconds: try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds),
            goAwayAfterStreams: try container.decodeIfPresent(Int.self, forKey: .goAwayAfterStreams),
            resetConnection: try container.decodeIfPresent(Bool.self, forKey: .resetConnection),
            token: try container.decodeIfPresent(String.self, forKey: .token)
        )
    }
}
