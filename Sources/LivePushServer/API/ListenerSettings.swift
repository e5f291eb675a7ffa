import Foundation

/// The settings of the HTTP listener: where it listens, how many connections it keeps, how long a request
/// may take to arrive, and how long a graceful shutdown may take.
struct ListenerSettings: Sendable {
    var host: String
    /// 0 picks a free port.
    var port: Int
    /// The most API connections open at once.
    var maximumConnections: Int
    /// Each request's header must be complete this long after the connection opened or was last answered.
    var requestHeaderTimeout: TimeInterval
    /// And its body this long after its header.
    var requestBodyTimeout: TimeInterval
    /// A graceful shutdown that takes longer is cancelled.
    var shutdownTimeout: TimeInterval
}
