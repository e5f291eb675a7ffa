import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import LivePushServer

/// The request deadlines on a channel whose clock the test moves (over real sockets and the machine's
/// clock: `ListenerDeadlineTests`).
@Suite struct RequestDeadlineHandlerTests {
    /// An open connection with the handler (header deadline 30 s, body deadline `body`).
    static func connection(body: TimeAmount = .seconds(60)) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestDeadlineHandler(deadlines: RequestDeadlines(header: .seconds(30), body: body)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func request(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/health")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    static func answer(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test func aSilentConnectionIsClosedAtTheHeaderDeadline() throws {
        let channel = try Self.connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// Answered at 20 s: the timer set for 30 s finds the deadline moved to 50 s and waits on for it.
    @Test func eachAnswerGivesTheNextHeaderItsWholeDeadline() throws {
        let channel = try Self.connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        try Self.request(channel)
        try Self.answer(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive, "closed at the first request's header deadline")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// A body deadline earlier than the header deadline's timer moves the timer.
    @Test func aBodyDeadlineShorterThanTheHeadersClosesOnTime() throws {
        let channel = try Self.connection(body: .seconds(5))
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/v1/activities")))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5) - .milliseconds(1))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    /// While a request is being answered no deadline runs, however long the route takes.
    @Test func noDeadlineRunsWhileAnAnswerIsBeingMade() throws {
        let channel = try Self.connection()
        try Self.request(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        try Self.answer(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(!channel.isActive)
    }
}
