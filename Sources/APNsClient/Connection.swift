import APNsCore
import Foundation
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One HTTP/2 connection to APNs, multiplexing many requests, each on its own stream.
final class APNsConnection: Sendable {
    let id: Int
    let channel: any Channel
    let state: ConnectionState
    private let requests: NIOLoopBound<APNsRequestsHandler>
    private let observer: NIOLoopBound<ConnectionObserver>
    private let authority: String

    private init(
        id: Int, channel: any Channel, state: ConnectionState,
        requests: NIOLoopBound<APNsRequestsHandler>, observer: NIOLoopBound<ConnectionObserver>,
        authority: String
    ) {
        self.id = id
        self.channel = channel
        self.state = state
        self.requests = requests
        self.observer = observer
        self.authority = authority
    }

    /// Connects, completes TLS (ALPN h2) and waits for the server's first SETTINGS frame.
    static func connect(
        id: Int,
        endpoint: APNsEndpoint,
        sslContext: NIOSSLContext,
        group: any EventLoopGroup,
        configuration: APNsClientConfiguration,
        logger: Logger
    ) async throws(APNsClientError) -> APNsConnection {
        let state = ConnectionState()
        let serverHostname = Self.isIPAddress(endpoint.host) ? nil : endpoint.host
        let idlePing = TimeAmount(configuration.idlePingInterval)
        let connectTimeout = TimeAmount(configuration.connectTimeout)
        let streamLimit = configuration.maximumStreamsPerConnection
        let endpointText = endpoint.description

        // Everything is in the pipeline before the connection exists, so no byte the server sends after
        // the TLS handshake (its SETTINGS come at once) can arrive before the HTTP/2 handler.
        let loop = group.next()
        let ready = loop.makePromise(of: Void.self)
        let pipelineReady = loop.makePromise(of: (NIOLoopBound<APNsRequestsHandler>, NIOLoopBound<ConnectionObserver>).self)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.so_keepalive), value: 1)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tls = try NIOSSLClientHandler(context: sslContext, serverHostname: serverHostname)
                    var connectionConfiguration = NIOHTTP2Handler.ConnectionConfiguration()
                    connectionConfiguration.initialSettings = [
                        HTTP2Setting(parameter: .maxConcurrentStreams, value: 100),
                        HTTP2Setting(parameter: .initialWindowSize, value: 1 << 20),
                        HTTP2Setting(parameter: .enablePush, value: 0),
                    ]
                    // Frames, not a child channel per stream: APNsRequestsHandler matches answers to requests.
                    // The header block is ours (fixed lowercase names; values checked in `execute`) and we read
                    // only the answer fields we know: validating every block again costs CPU on every request.
                    connectionConfiguration.headerBlockValidation = .disabled
                    // A late answer to a request we reset is a protocol error unless swift-nio-http2 still
                    // remembers the reset: remember as many as can time out together (the stream limit).
                    connectionConfiguration.maximumRecentlyResetStreams = 1_000
                    let http2 = NIOHTTP2Handler(mode: .client, connectionConfiguration: connectionConfiguration)
                    let observer = ConnectionObserver(
                        state: state, ready: ready, idlePingInterval: idlePing, streamLimit: streamLimit, logger: logger)
                    let requests = APNsRequestsHandler(state: state, streamLimit: streamLimit)
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(tls)
                    try operations.addHandler(http2)
                    try operations.addHandler(observer)
                    try operations.addHandler(requests)
                    pipelineReady.succeed(
                        (NIOLoopBound(requests, eventLoop: channel.eventLoop), NIOLoopBound(observer, eventLoop: channel.eventLoop)))
                }
            }

        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            pipelineReady.fail(error)
            ready.fail(error)
            throw .connectFailed(endpoint: endpointText, detail: ConnectFailure.describe(error))
        }

        let timeout = channel.eventLoop.scheduleTask(in: connectTimeout) {
            // The request was never sent: a failed connection attempt, not a request that timed out.
            ready.fail(
                APNsClientError.connectFailed(
                    endpoint: endpointText,
                    detail: "no TLS and HTTP/2 handshake within \(Double(connectTimeout.nanoseconds) / 1e9) s"
                ))
        }
        do {
            let (requests, observer) = try await pipelineReady.futureResult.get()
            try await ready.futureResult.get()
            timeout.cancel()
            return APNsConnection(
                id: id, channel: channel, state: state, requests: requests, observer: observer,
                authority: endpoint.authority
            )
        } catch {
            timeout.cancel()
            channel.close(promise: nil)
            if let clientError = error as? APNsClientError {
                if case .connectionClosed = clientError {
                    throw .tlsFailed(endpoint: endpointText, detail: "the server closed the connection during the TLS/HTTP2 handshake")
                }
                throw clientError
            }
            if error is NIOSSLError || error is BoringSSLError {
                throw .tlsFailed(endpoint: endpointText, detail: "\(error)")
            }
            throw .connectFailed(endpoint: endpointText, detail: ConnectFailure.describe(error))
        }
    }

    /// Sends one request and returns the answer or a typed error. `authorization` is the full header
    /// value (`bearer <jwt>`) or nil.
    func execute(_ request: WireRequest, authorization: String?, timeout: Duration) async -> Result<WireResponse, APNsClientError> {
        let loop = channel.eventLoop
        let requestHeaders: HPACKHeaders
        switch headers(of: request, authorization: authorization) {
        case .success(let headers): requestHeaders = headers
        case .failure(let error): return .failure(error)
        }
        let body = channel.allocator.buffer(bytes: request.body)
        let state = self.state
        let timeoutAmount = TimeAmount(timeout)
        let requests = self.requests
        let observer = self.observer
        state.update { $0.inFlight += 1 }
        // The answer resumes the caller straight from the handler: no promise, future or callback list.
        return await withUnsafeContinuation { continuation in
            let execute: @Sendable () -> Void = {
                observer.value.noteActivity()
                requests.value.send(headers: requestHeaders, body: body, timeout: timeoutAmount) { result in
                    state.update { $0.inFlight -= 1 }
                    continuation.resume(returning: result)
                }
            }
            if loop.inEventLoop {
                execute()
            } else {
                loop.execute(execute)
            }
        }
    }

    /// Sends a batch of requests, written together on the event loop, and returns their answers (or typed
    /// errors) in the batch's order once the last is in: one continuation for the batch, none per request.
    /// Each request has its own deadline, `timeout` after the batch is written.
    func execute(batch: [WireRequest], authorization: String?, timeout: Duration) async -> [ConnectionAnswer] {
        guard !batch.isEmpty else { return [] }
        let loop = channel.eventLoop
        var ready: [BatchRequest] = []
        ready.reserveCapacity(batch.count)
        var refused: [(index: Int, error: APNsClientError)] = []
        for (index, request) in batch.enumerated() {
            switch headers(of: request, authorization: authorization) {
            case .success(let headers):
                ready.append(BatchRequest(index: index, headers: headers, body: channel.allocator.buffer(bytes: request.body)))
            case .failure(let error): refused.append((index, error))
            }
        }
        let state = self.state
        let timeoutAmount = TimeAmount(timeout)
        let requests = self.requests
        let observer = self.observer
        let count = batch.count
        let toSend = ready
        let notSent = refused
        state.update { $0.inFlight += count }
        return await withUnsafeContinuation { continuation in
            let execute: @Sendable () -> Void = {
                let collector = BatchCollector(count: count, state: state, continuation: continuation)
                for (index, error) in notSent { collector.record(.failure(error), at: index) }
                observer.value.noteActivity()
                requests.value.send(batch: toSend, timeout: timeoutAmount, collector: collector)
            }
            if loop.inEventLoop {
                execute()
            } else {
                loop.execute(execute)
            }
        }
    }

    /// The request's header block, or a protocol error for a value HTTP/2 cannot carry.
    private func headers(of request: WireRequest, authorization: String?) -> Result<HPACKHeaders, APNsClientError> {
        // HTTP/2 forbids NUL, CR and LF in a field value (RFC 9113 §8.2.1); no connection can send it.
        for field in request.fields where field.value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            return .failure(
                .protocolError(
                    "header \(field.name) contains a NUL, CR or LF character, which HTTP/2 does not allow in a header value"))
        }
        var headers = HPACKHeaders()
        headers.reserveCapacity(10)
        headers.add(name: ":method", value: request.method)
        headers.add(name: ":scheme", value: "https")
        // A path (it holds the device token) and an id are new in every request: sent literally, they
        // stay out of the HPACK table, which keeps the headers that repeat and stays short to search.
        headers.add(name: ":path", value: request.path, indexing: .nonIndexable)
        headers.add(name: ":authority", value: authority)
        if let authorization {
            headers.add(name: "authorization", value: authorization, indexing: .indexable)
        }
        for field in request.fields {
            let unique = field.name == "apns-id" || field.name == "apns-request-id"
            headers.add(name: field.name, value: field.value, indexing: unique ? .nonIndexable : .indexable)
        }
        if !request.body.isEmpty {
            headers.add(name: "content-type", value: "application/json")
        }
        headers.add(name: "content-length", value: String(request.body.count))
        return .success(headers)
    }

    /// Closes the connection after in-flight requests finish (GOAWAY from our side).
    func close() {
        channel.close(mode: .all, promise: nil)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
