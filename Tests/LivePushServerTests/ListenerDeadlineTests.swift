import Foundation
import LivePushServer
import LivePushTesting
import NIOCore
import NIOPosix
import Testing

/// The HTTP listener's request deadlines, over real sockets; deadlines on the machine's clock, so the suite
/// runs while no other test's simulator or server does.
@Suite(.exclusive) struct ListenerDeadlineTests {
    /// A raw TCP client that notes when the server closes the connection.
    final class RawConnection: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private let lock = NSLock()
        private var closedAt: Date?
        private var received = ""
        let channel: any Channel

        private init(channel: any Channel) { self.channel = channel }

        static func open(port: Int) async throws -> RawConnection {
            let box = Box()
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = RawConnection(channel: channel)
                        box.value = handler
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            _ = channel
            return try #require(box.value)
        }

        /// Runs `body` with a connection to `port`, and closes it afterwards unless the server did.
        static func with<Result>(
            port: Int, isolation: isolated (any Actor)? = #isolation, _ body: (RawConnection) async throws -> Result
        ) async throws -> Result {
            try await withScopedResource {
                try await open(port: port)
            } stop: { connection in
                if connection.closed == nil { try? await connection.channel.close() }
            } _: { connection in
                try await body(connection)
            }
        }

        final class Box: @unchecked Sendable { var value: RawConnection? }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            lock.withLock { received += String(buffer: buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            lock.withLock { closedAt = Date() }
        }

        var closed: Date? { lock.withLock { closedAt } }
        var text: String { lock.withLock { received } }

        func send(_ text: String) async throws {
            try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
        }
    }

    @Test func halfAHeaderIsClosedAtTheDeadlineEvenWhenTrickled() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.requestHeaderTimeout = 0.5 }) { harness in
            let port = try #require(harness.server.port)
            let opened = Date()
            let still = try await RawConnection.open(port: port)
            try? await still.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  // closed already on a slow machine: as good
            let trickled = try await RawConnection.open(port: port)
            // One header byte every 100 ms for 15 s: each read would reset an idle timeout, not this deadline.
            let header = "GET /health HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 130)
            for byte in header.map(String.init) {
                guard trickled.closed == nil else { break }
                try? await trickled.send(byte)
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await eventually(timeout: .seconds(30)) { still.closed != nil && trickled.closed != nil })
            for connection in [still, trickled] {
                // Well before the trickle would have ended (a loaded machine may stall for seconds).
                let after = try #require(connection.closed).timeIntervalSince(opened)
                #expect(after >= 0.4 && after < 12, "closed after \(after) s")
                #expect(connection.text.isEmpty, "no answer to an unfinished header")
            }
        }
    }

    @Test func aSlowBodyIsClosedAndCompleteRequestsKeepTheConnection() async throws {
        try await withServer(
            ServerOptions(sender: FakeSender()) {
                $0.requestHeaderTimeout = 120
                $0.requestBodyTimeout = 0.5
            }
        ) { harness in
            let port = try #require(harness.server.port)
            let keepAlive = try await RawConnection.open(port: port)
            for _ in 0..<3 {
                try await keepAlive.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(await eventually(timeout: .seconds(10)) { keepAlive.text.components(separatedBy: "HTTP/1.1 200").count - 1 == 3 })
            #expect(keepAlive.closed == nil, "answered requests keep the connection")

            // An authenticated request whose route waits for the body: closed by the body deadline (0.5 s),
            // long before the header deadline (120 s) could do it (generous bounds: CI machines stall).
            let slowBody = try await RawConnection.open(port: port)
            let sent = Date()
            try await slowBody.send(
                "POST /v1/activities HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestServer.appKey)\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{\"a\""
            )
            #expect(await eventually(timeout: .seconds(60)) { slowBody.closed != nil })
            let after = try #require(slowBody.closed).timeIntervalSince(sent)
            #expect(after >= 0.4 && after < 60, "closed by the body deadline after \(after) s")
        }
    }

    /// The header deadline is also the idle timeout: a connection that never sends a byte, and a
    /// keep-alive connection that goes quiet after its answer, are closed when the next header is late.
    @Test func idleConnectionsAreClosedAtTheHeaderDeadline() async throws {
        // A 4 s deadline: long enough that a loaded CI machine still gets the request in before it.
        try await withServer(ServerOptions(sender: FakeSender()) { $0.requestHeaderTimeout = 4 }) { harness in
            let port = try #require(harness.server.port)
            let opened = Date()
            let silent = try await RawConnection.open(port: port)
            let quiet = try await RawConnection.open(port: port)
            // The request comes a second after the connection opened: its answer restarts the deadline, so
            // the connection lives at least 4 s from here (counted from the open it would close 1 s earlier).
            try await Task.sleep(for: .seconds(1))
            let sent = Date()
            try await quiet.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await eventually(timeout: .seconds(10)) { quiet.text.contains("HTTP/1.1 200") }, "\(quiet.text)")
            #expect(await eventually(timeout: .seconds(30)) { silent.closed != nil && quiet.closed != nil })
            let silentAfter = try #require(silent.closed).timeIntervalSince(opened)
            #expect(silentAfter >= 3.9 && silentAfter < 20, "a silent connection closed after \(silentAfter) s")
            // Measured from before the request was sent, so before the server's answer started its deadline.
            let quietAfter = try #require(quiet.closed).timeIntervalSince(sent)
            #expect(quietAfter >= 3.9 && quietAfter < 20, "an idle keep-alive connection closed \(quietAfter) s after its request")
        }
    }

    @Test func anEarlyAnswerStillLeavesADeadline() async throws {
        // Answered early (401 before the body: the server discards the rest), then the body, then
        // silence: the next request's header deadline runs, the connection is not left without one.
        try await withServer(ServerOptions(sender: FakeSender()) { $0.requestHeaderTimeout = 3 }) { harness in
            let port = try #require(harness.server.port)
            let earlyAnswer = try await RawConnection.open(port: port)
            try await earlyAnswer.send("POST /v1/activities HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n")
            #expect(await eventually(timeout: .seconds(10)) { earlyAnswer.text.contains("401") })
            try await earlyAnswer.send("{}")
            #expect(await eventually(timeout: .seconds(20)) { earlyAnswer.closed != nil }, "not left without a deadline")
        }
    }
}
