import Foundation
import HTTPTypes
import LivePushKit
import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The reporter's transport in the tests: sends over URLSession (real sockets) to wherever `target` says,
/// keeps a log of every request, and can refuse requests as a dead network would.
final class ForwardingTransport: ClientTransport {
    struct Sent: Sendable {
        var operationID: String
        var body: String
        var failed: Bool
    }

    private struct State {
        var target: URL
        var failing = false
        var log: [Sent] = []
    }

    private let state: Mutex<State>
    private let session: SessionTransport

    init(target: URL) {
        state = Mutex(State(target: target))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120  // a loaded machine can take seconds to answer; a test waits for it
        session = SessionTransport(session: URLSession(configuration: configuration))
    }

    /// Where requests go from now on.
    func retarget(_ url: URL) { state.withLock { $0.target = url } }

    /// While true, every request fails before it leaves, as with no network.
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    var log: [Sent] { state.withLock { $0.log } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let (target, failing) = state.withLock { ($0.target, $0.failing) }
        state.withLock { $0.log.append(Sent(operationID: operationID, body: String(decoding: data, as: UTF8.self), failed: failing)) }
        if failing { throw URLError(.notConnectedToInternet) }
        do {
            return try await session.send(request, body: body == nil ? nil : HTTPBody(data), baseURL: target, operationID: operationID)
        } catch {
            state.withLock { $0.log[$0.log.count - 1].failed = true }
            throw error
        }
    }
}
