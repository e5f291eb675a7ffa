import APNsCore
import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// Connections to one endpoint. A request goes to the least loaded open connection; a new connection is
/// opened only when every open one is at the stream limit the server set (and past APNs' first-request
/// limit of 1), up to the configured maximum.
final class ConnectionPool: Sendable {
    private struct State {
        var connections: [APNsConnection] = []
        /// Connections being opened, with the requests waiting for them.
        var opening: [Int: [CheckedContinuation<APNsConnection, any Error>]] = [:]
        var nextID = 1
        var opened = 0
        /// How the most recent failed opening failed, for requests that looked for it just after.
        var lastOpenFailure: (id: Int, error: APNsClientError)?
        var shutDown = false
    }

    private let state = Mutex(State())
    private let configuration: APNsClientConfiguration
    private let sslContext: NIOSSLContext
    private let group: any EventLoopGroup
    private let logger: Logger

    init(configuration: APNsClientConfiguration, sslContext: NIOSSLContext, group: any EventLoopGroup, logger: Logger) {
        self.configuration = configuration
        self.sslContext = sslContext
        self.group = group
        self.logger = logger
    }

    private enum Choice {
        case use(APNsConnection)
        case wait(Int)
        case open(Int)
        case shutDown
    }

    /// A connection for the next request. `avoiding` names a connection that just failed this request.
    func connection(avoiding avoided: Int? = nil) async throws(APNsClientError) -> APNsConnection {
        let choice: Choice = state.withLock { state in
            guard !state.shutDown else { return .shutDown }
            state.connections.removeAll { !$0.state.isUsable }
            var best: (connection: APNsConnection, load: Double, saturated: Bool, warm: Bool)?
            for connection in state.connections where connection.id != avoided {
                let values = connection.state.snapshot
                let load = Double(values.inFlight) / Double(values.maximumConcurrentStreams)
                if best == nil || load < best!.load {
                    best = (connection, load, values.inFlight >= values.maximumConcurrentStreams, values.maximumConcurrentStreams > 1)
                }
            }
            let total = state.connections.count + state.opening.count
            if let best {
                // A saturated connection that has left APNs' warm-up limit of one stream asks for another
                // connection; meanwhile the request queues on the least loaded one (HTTP/2 buffers it).
                if best.saturated, best.warm, total < configuration.maximumConnections {
                    let id = state.nextID
                    state.nextID += 1
                    state.opening[id] = []
                    openInBackground(id: id)
                }
                return .use(best.connection)
            }
            if let waiting = state.opening.keys.first, total >= configuration.maximumConnections || avoided == nil {
                return .wait(waiting)
            }
            if total >= configuration.maximumConnections,
                let fallback = state.connections.first(where: { $0.id == avoided })
            {
                // At the limit with only the connection to avoid: use it rather than exceed the limit.
                return .use(fallback)
            }
            let id = state.nextID
            state.nextID += 1
            state.opening[id] = []
            return .open(id)
        }
        switch choice {
        case .use(let connection):
            return connection
        case .shutDown:
            throw .shutDown
        case .wait(let id):
            return try await waitFor(id)
        case .open(let id):
            openInBackground(id: id)
            return try await waitFor(id)
        }
    }

    /// Connections for `count` requests sent together, with how many each takes: spread over the open
    /// connections by their free streams (the server's limit minus the requests in flight), most free
    /// first. What exceeds every limit goes to the least loaded connection, where HTTP/2 holds it until a
    /// stream frees, and asks for one more connection as a single request on a saturated one does. With
    /// no usable open connection, all go to the one `connection(avoiding:)` gives.
    func shares(for count: Int, avoiding avoided: Int? = nil) async throws(APNsClientError) -> [(connection: APNsConnection, count: Int)] {
        let spread: [(connection: APNsConnection, count: Int)]? = state.withLock { state in
            guard !state.shutDown else { return nil }
            state.connections.removeAll { !$0.state.isUsable }
            var open: [(connection: APNsConnection, limit: Int, inFlight: Int)] = []
            for connection in state.connections where connection.id != avoided {
                let values = connection.state.snapshot
                open.append((connection, values.maximumConcurrentStreams, values.inFlight))
            }
            guard !open.isEmpty else { return nil }
            open.sort { $0.limit - $0.inFlight > $1.limit - $1.inFlight }
            var taken = [Int](repeating: 0, count: open.count)
            var remaining = count
            for index in open.indices where remaining > 0 {
                taken[index] = min(remaining, max(0, open[index].limit - open[index].inFlight))
                remaining -= taken[index]
            }
            if remaining > 0 {
                let load = { (index: Int) in Double(open[index].inFlight + taken[index]) / Double(open[index].limit) }
                let least = open.indices.min { load($0) < load($1) }!
                taken[least] += remaining
                let total = state.connections.count + state.opening.count
                if open.contains(where: { $0.limit > 1 }), total < configuration.maximumConnections {
                    let id = state.nextID
                    state.nextID += 1
                    state.opening[id] = []
                    openInBackground(id: id)
                }
            }
            return open.indices.filter { taken[$0] > 0 }.map { (open[$0].connection, taken[$0]) }
        }
        if let spread { return spread }
        return [(try await connection(avoiding: avoided), count)]
    }

    private func waitFor(_ id: Int) async throws(APNsClientError) -> APNsConnection {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let registered = state.withLock { state -> Bool in
                    guard state.opening[id] != nil else { return false }
                    state.opening[id]!.append(continuation)
                    return true
                }
                if !registered {
                    // It finished opening between the choice and now: take its result.
                    let (existing, failure) = state.withLock { state in
                        (state.connections.first { $0.id == id }, state.lastOpenFailure.flatMap { $0.id == id ? $0.error : nil })
                    }
                    if let existing {
                        continuation.resume(returning: existing)
                    } else {
                        continuation.resume(
                            throwing: failure
                                ?? APNsClientError.connectionClosed(processed: false, detail: "the connection closed right after opening"))
                    }
                }
            }
        } catch let error as APNsClientError {
            throw error
        } catch {
            throw .connectionClosed(processed: false, detail: "\(error)")
        }
    }

    private func openInBackground(id: Int) {
        let configuration = configuration
        let sslContext = sslContext
        let group = group
        let logger = logger
        Task {
            let result: Result<APNsConnection, APNsClientError>
            do {
                let connection = try await APNsConnection.connect(
                    id: id, endpoint: configuration.endpoint, sslContext: sslContext, group: group,
                    configuration: configuration, logger: logger
                )
                result = .success(connection)
                logger.debug("opened APNs connection \(id) to \(configuration.endpoint)")
            } catch let error as APNsClientError {
                result = .failure(error)
                logger.warning("could not open an APNs connection to \(configuration.endpoint): \(error)")
            } catch {
                result = .failure(.connectFailed(endpoint: configuration.endpoint.description, detail: "\(error)"))
            }
            let (waiters, closeNow): ([CheckedContinuation<APNsConnection, any Error>], Bool) = state.withLock { state in
                let waiters = state.opening.removeValue(forKey: id) ?? []
                if case .failure(let error) = result { state.lastOpenFailure = (id, error) }
                if case .success(let connection) = result {
                    if state.shutDown { return (waiters, true) }
                    state.connections.append(connection)
                    state.opened += 1
                }
                return (waiters, false)
            }
            if closeNow, case .success(let connection) = result {
                connection.close()
                for waiter in waiters { waiter.resume(throwing: APNsClientError.shutDown) }
                return
            }
            for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
            if case .success(let connection) = result {
                connection.channel.closeFuture.whenComplete { [weak self] _ in
                    self?.state.withLock { $0.connections.removeAll { $0.id == id } }
                }
            }
        }
    }

    /// The number of open connections (for tests and metrics).
    var openConnectionCount: Int { state.withLock { $0.connections.count } }

    /// How many connections this pool has opened since it started.
    var openedConnectionCount: Int { state.withLock { $0.opened } }

    /// Closes every connection; requests in flight finish or fail.
    func shutdown() async {
        let connections = state.withLock { state -> [APNsConnection] in
            state.shutDown = true
            return state.connections
        }
        for connection in connections {
            connection.close()
        }
        for connection in connections {
            try? await connection.channel.closeFuture.get()
        }
    }
}
