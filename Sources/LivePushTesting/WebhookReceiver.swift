import Foundation
import Hummingbird
import LiveActivity
import Logging
import NIOCore
import Synchronization

/// How a ``WebhookReceiver`` answers: a healthy receiver, or one that is slow, failing, hanging or
/// redirecting, to test what the server does then.
public struct WebhookBehavior: Sendable {
    /// How long each answer waits (a slow backend).
    public var delay: Duration = .zero
    /// The first POSTs answered 503 (a backend that is failing).
    public var failFirst = 0
    /// Answers nothing (a backend that hangs) until stopped or ``WebhookReceiver/stopHanging()``, then 503.
    public var hangs = false
    /// The first POSTs answered with this redirect (a receiver that points elsewhere).
    public var redirect: (status: Int, location: String, count: Int)?
    /// The status of every other answer: 204 by default; another (500, say) is a receiver that always
    /// refuses.
    public var status = 204

    public init(
        delay: Duration = .zero, failFirst: Int = 0, hangs: Bool = false, redirect: (status: Int, location: String, count: Int)? = nil,
        status: Int = 204
    ) {
        self.delay = delay
        self.failFirst = failFirst
        self.hangs = hangs
        self.redirect = redirect
        self.status = status
    }
}

/// Runs `body` with an HTTP server on a loopback port the kernel picks that keeps what is POSTed to it,
/// on any path (``WebhookReceiver/url`` is `/hook`), and stops it afterwards, whatever `body` does.
public func withWebhookReceiver<Result>(
    _ behavior: WebhookBehavior = WebhookBehavior(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (WebhookReceiver) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        let receiver = WebhookReceiver(behavior)
        try await receiver.start()
        return receiver
    } stop: { receiver in
        await receiver.stop()
    } _: { receiver in
        try await body(receiver)
    }
}

/// A loopback HTTP server that keeps what is POSTed to it: every attempt with its headers and raw body,
/// and the JSON bodies of those it answered 2xx.
public final class WebhookReceiver: Sendable {

    /// One POST as it arrived.
    public struct Post: Sendable {
        /// The request's path, `/hook` for ``WebhookReceiver/url``.
        public var path: String
        /// Every header, by lowercased name.
        public var headers: [String: String]
        public var signature: String?
        public var eventID: String?
        public var contentType: String?
        public var body: Data
        /// The status it was answered with (nil: not answered yet).
        public var status: Int?
        public var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// What arrived, and the server's task and port.
    private struct State {
        var received: [JSONValue] = []
        var attempts: [Post] = []
        var task: Task<Void, any Error>?
        var port = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let behavior: WebhookBehavior

    init(_ behavior: WebhookBehavior) {
        self.behavior = behavior
    }

    /// The JSON bodies answered 2xx, in arrival order.
    public var bodies: [JSONValue] { state.withLock { $0.received } }
    /// Every POST, in arrival order.
    public var posts: [Post] { state.withLock { $0.attempts } }
    /// The port on 127.0.0.1.
    public var port: Int { state.withLock { $0.port } }
    /// The URL to give the server.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/hook")! }

    func start() async throws {
        let router = Router()
        router.post("**") { [self] request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            var requestHeaders = [String: String]()
            for field in request.headers { requestHeaders[field.name.canonicalName] = field.value }
            var post = Post(
                path: request.uri.path, headers: requestHeaders,
                signature: request.headers.first { $0.name.canonicalName == "livepush-signature" }?.value,
                eventID: request.headers.first { $0.name.canonicalName == "livepush-event-id" }?.value,
                contentType: request.headers[.contentType], body: Data(buffer.readableBytesView))
            let index = state.withLock { state in
                state.attempts.append(post)
                return state.attempts.count - 1
            }
            while behavior.hangs, !state.withLock({ $0.stopping }) { try await Task.sleep(for: .milliseconds(20)) }
            if behavior.delay > .zero { try await Task.sleep(for: behavior.delay) }
            let refused = behavior.hangs || index < behavior.failFirst
            var status: HTTPResponse.Status = refused ? .serviceUnavailable : HTTPResponse.Status(code: behavior.status)
            var headers = HTTPFields()
            if let redirect = behavior.redirect, index < redirect.count {
                status = HTTPResponse.Status(code: redirect.status)
                headers[.location] = redirect.location
            }
            post.status = status.code
            state.withLock { state in
                state.attempts[index] = post
                if (200..<300).contains(status.code), let value = post.json { state.received.append(value) }
            }
            return Response(status: status, headers: headers)
        }
        let (bound, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "livepush.testing.webhook")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let task = Task { try await app.run() }
        state.withLock { $0.task = task }
        for await value in bound { state.withLock { $0.port = value } }
    }

    /// A hanging receiver answers the POSTs it holds, and every later one, 503 at once (a backend that
    /// went from hanging to failing): a server waiting on it is released before the test's scopes end.
    public func stopHanging() {
        state.withLock { $0.stopping = true }
    }

    func stop() async {
        let task = state.withLock { state in
            state.stopping = true
            return state.task
        }
        task?.cancel()
        _ = await task?.result
    }

    /// A URL where nothing listens (a backend that is down): a receiver's port once it stopped.
    public static func downURL() async throws -> URL {
        try await withWebhookReceiver { $0.url }
    }
}
