import Foundation
import LivePushTesting
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// Runs `body` with the connection `connect` opens, and closes it afterwards, whatever `body` does.
@discardableResult
func withRawHTTP2Client<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ connect: () async throws -> RawHTTP2Client,
    _ body: (RawHTTP2Client) async throws -> Result
) async throws -> Result {
    try await withScopedResource(connect, stop: { client in await client.close() }, body)
}

/// One answer as the raw client saw it.
struct RawResponse: Sendable {
    var streamID: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var status: Int? { self["status"].flatMap(Int.init) ?? self[":status"].flatMap(Int.init) }
    subscript(name: String) -> String? { headers.first { $0.name == name }?.value }
    /// `reason` of the JSON error body.
    var reason: String? { json?["reason"] as? String }
    var json: [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

/// A GOAWAY as received.
struct RawGoAway: Sendable {
    var lastStreamID: Int
    var errorCode: UInt32
    var debugData: String
}

/// A test-only HTTP/2-over-TLS client that sends any header list (duplicates, wrong method, missing
/// headers) and reports everything the server sends: answers, SETTINGS, GOAWAY, and the close.
final class RawHTTP2Client: Sendable {
    enum ClientError: Error { case closedBeforeSettings, closed, timedOut }

    let channel: any Channel
    private let collector: FrameCollector.Box
    private let nextStream = NIOLockedCounter(start: 1)

    private init(channel: any Channel, collector: FrameCollector.Box) {
        self.channel = channel
        self.collector = collector
    }

    /// Connects, completes TLS (trusting `caPEM`, presenting `clientCertificate` if given) with the given
    /// ALPN list, sends the preface and waits for the server's first SETTINGS. Throws when the server
    /// closes instead.
    static func connect(
        port: Int, caPEM: String, alpn: [String] = ["h2"], serverName: String = "localhost",
        clientCertificate: (certificatePEM: String, keyPEM: String)? = nil
    ) async throws -> RawHTTP2Client {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(caPEM.utf8)))
        if let clientCertificate {
            tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(clientCertificate.certificatePEM.utf8)).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(clientCertificate.keyPEM.utf8), format: .pem))
        }
        tls.applicationProtocols = alpn
        tls.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: tls)
        let box = FrameCollector.Box()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.headerBlockValidation = .disabled
                    connection.initialSettings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: 100)]
                    try operations.addHandler(NIOHTTP2Handler(mode: .client, connectionConfiguration: connection, streamConfiguration: .init()))
                    let collector = FrameCollector(box: box)
                    try operations.addHandler(collector)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let client = RawHTTP2Client(channel: channel, collector: box)
        try await client.waitFor(timeout: .seconds(30)) { $0.settings.count >= 1 }
        return client
    }

    /// Every SETTINGS frame received (not ACKs), in order.
    var settings: [HTTP2Settings] { collector.state.withLock { $0.settings } }
    /// The latest value the server announced for MAX_CONCURRENT_STREAMS.
    var maxConcurrentStreams: Int? {
        settings.flatMap { $0 }.last { $0.parameter == .maxConcurrentStreams }?.value
    }
    var goAway: RawGoAway? { collector.state.withLock { $0.goAway } }
    var isClosed: Bool { collector.state.withLock { $0.closed } }

    /// Sends one request on a new stream and waits for its whole answer. (The timeouts here are hang
    /// guards for a loaded machine, not speed checks.)
    func send(_ headers: [(String, String)], body: [UInt8] = [], timeout: TimeAmount = .seconds(30)) async throws -> RawResponse {
        let streamID = start(headers, body: body)
        return try await response(streamID, timeout: timeout)
    }

    /// Sends one request on a new stream without waiting; returns its stream id.
    @discardableResult
    func start(_ headers: [(String, String)], body: [UInt8] = []) -> Int {
        let streamID = nextStream.next(by: 2)
        var hpack = HPACKHeaders()
        for (name, value) in headers { hpack.add(name: name, value: value) }
        let id = HTTP2StreamID(streamID)
        let head = HTTP2Frame(streamID: id, payload: .headers(.init(headers: hpack, endStream: body.isEmpty)))
        channel.write(head, promise: nil)
        if !body.isEmpty {
            var offset = 0
            while offset < body.count {
                let end = min(offset + 16384, body.count)
                let buffer = channel.allocator.buffer(bytes: body[offset..<end])
                let frame = HTTP2Frame(streamID: id, payload: .data(.init(data: .byteBuffer(buffer), endStream: end == body.count)))
                channel.write(frame, promise: nil)
                offset = end
            }
        }
        channel.flush()
        return streamID
    }

    /// Opens a stream with `headers` and no END_STREAM: the request stays unfinished, so unanswered.
    @discardableResult
    func open(_ headers: [(String, String)]) -> Int {
        let streamID = nextStream.next(by: 2)
        var hpack = HPACKHeaders()
        for (name, value) in headers { hpack.add(name: name, value: value) }
        channel.writeAndFlush(HTTP2Frame(streamID: HTTP2StreamID(streamID), payload: .headers(.init(headers: hpack, endStream: false))), promise: nil)
        return streamID
    }

    /// Resets `streamID` (RST_STREAM CANCEL), as a client does when it drops a request or its answer.
    func reset(_ streamID: Int) {
        channel.writeAndFlush(HTTP2Frame(streamID: HTTP2StreamID(streamID), payload: .rstStream(.cancel)), promise: nil)
    }

    /// Waits for the answer on `streamID`.
    func response(_ streamID: Int, timeout: TimeAmount = .seconds(30)) async throws -> RawResponse {
        try await waitFor(timeout: timeout) { $0.responses[streamID] != nil || $0.closed }
        guard let response = collector.state.withLock({ $0.responses[streamID] }) else { throw ClientError.closed }
        return response
    }

    /// Waits until the server closes the connection.
    func waitForClose(timeout: TimeAmount = .seconds(30)) async throws {
        try await waitFor(timeout: timeout) { $0.closed }
    }

    /// Waits until a GOAWAY arrives.
    func waitForGoAway(timeout: TimeAmount = .seconds(30)) async throws -> RawGoAway {
        try await waitFor(timeout: timeout) { $0.goAway != nil || $0.closed }
        guard let goAway else { throw ClientError.closed }
        return goAway
    }

    /// Waits until `settings.count` reaches `count`.
    func waitForSettings(count: Int, timeout: TimeAmount = .seconds(30)) async throws {
        try await waitFor(timeout: timeout) { $0.settings.count >= count || $0.closed }
    }

    func close() async {
        try? await channel.close()
    }

    private func waitFor(timeout: TimeAmount, _ condition: @escaping @Sendable (FrameCollector.State) -> Bool) async throws {
        let deadline = NIODeadline.now() + timeout
        while true {
            let state = collector.state.withLock { $0 }
            if condition(state) { return }
            if state.closed, state.settings.isEmpty { throw ClientError.closedBeforeSettings }
            if NIODeadline.now() > deadline { throw ClientError.timedOut }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Collects what the server sends.
final class FrameCollector: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    struct State: Sendable {
        var responses: [Int: RawResponse] = [:]
        var partial: [Int: RawResponse] = [:]
        var settings: [HTTP2Settings] = []
        var goAway: RawGoAway?
        var closed = false
    }

    final class Box: Sendable {
        let state = Mutex(State())
    }

    private let box: Box

    init(box: Box) { self.box = box }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let streamID = Int(frame.streamID)
        box.state.withLock { state in
            switch frame.payload {
            case .headers(let headers):
                var response = state.partial[streamID] ?? RawResponse(streamID: streamID, headers: [], body: [])
                for (name, value, _) in headers.headers { response.headers.append((name, value)) }
                if headers.endStream {
                    state.responses[streamID] = response
                    state.partial[streamID] = nil
                } else {
                    state.partial[streamID] = response
                }
            case .data(let data):
                var response = state.partial[streamID] ?? RawResponse(streamID: streamID, headers: [], body: [])
                if case .byteBuffer(let buffer) = data.data { response.body += Array(buffer.readableBytesView) }
                if data.endStream {
                    state.responses[streamID] = response
                    state.partial[streamID] = nil
                } else {
                    state.partial[streamID] = response
                }
            case .settings(.settings(let settings)):
                state.settings.append(settings)
            case .goAway(let lastStreamID, let errorCode, let opaqueData):
                let debug = opaqueData.map { String(decoding: $0.readableBytesView, as: UTF8.self) } ?? ""
                state.goAway = RawGoAway(lastStreamID: Int(lastStreamID), errorCode: UInt32(errorCode.networkCode), debugData: debug)
            default:
                break
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        box.state.withLock { $0.closed = true }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// A thread-safe counter handing out odd stream ids.
final class NIOLockedCounter: Sendable {
    private let value: Mutex<Int>
    init(start: Int) { value = Mutex(start) }
    func next(by step: Int) -> Int {
        value.withLock { current in
            defer { current += step }
            return current
        }
    }
}
