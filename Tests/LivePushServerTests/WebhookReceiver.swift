import Foundation
import Hummingbird
import LiveActivity
import Logging
import NIOCore

/// A loopback HTTP server that keeps what is POSTed to it: every attempt with its headers and raw body,
/// and the JSON bodies of those it answered 2xx.
final class WebhookReceiver: @unchecked Sendable {
    /// One POST as it arrived.
    struct Post: Sendable {
        var signature: String?
        var eventId: String?
        var contentType: String?
        var body: Data
        /// The status it was answered with (nil: never answered).
        var status: Int?
        var json: JSONValue? { try? JSONValue.parse(body) }
    }

    private let lock = NSLock()
    private var received: [JSONValue] = []
    private var attempts: [Post] = []
    private var task: Task<Void, any Error>?
    private(set) var port = 0
    /// How long each answer waits (a slow backend).
    private let delay: Duration
    /// The first POSTs answered 503 (a backend that is failing).
    private let failures: Int
    /// Answers nothing (a backend that hangs) until stopped, then 503.
    private let hangs: Bool
    /// The first POSTs answered with this redirect (a receiver that points elsewhere).
    private let redirect: (status: HTTPResponse.Status, location: String, count: Int)?
    private var stopping = false

    init(delay: Duration = .zero, failFirst failures: Int = 0, hangs: Bool = false,
         redirectFirst count: Int = 0, with status: HTTPResponse.Status = .temporaryRedirect, to location: String = "") {
        self.delay = delay
        self.failures = failures
        self.hangs = hangs
        redirect = count > 0 ? (status, location, count) : nil
    }

    /// The JSON bodies answered 2xx.
    var bodies: [JSONValue] { lock.withLock { received } }
    /// Every POST, in arrival order.
    var posts: [Post] { lock.withLock { attempts } }

    func start() async throws {
        let router = Router()
        router.post("/hook") { [self] request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            var post = Post(
                signature: request.headers.first { $0.name.canonicalName == "livepush-signature" }?.value,
                eventId: request.headers.first { $0.name.canonicalName == "livepush-event-id" }?.value,
                contentType: request.headers[.contentType], body: Data(buffer.readableBytesView)
            )
            let index = lock.withLock { attempts.append(post); return attempts.count - 1 }
            while hangs, !lock.withLock({ stopping }) { try await Task.sleep(for: .milliseconds(20)) }
            if delay > .zero { try await Task.sleep(for: delay) }
            var status: HTTPResponse.Status = hangs || index < failures ? .serviceUnavailable : .noContent
            var headers = HTTPFields()
            if let redirect, index < redirect.count {
                status = redirect.status
                headers[.location] = redirect.location
            }
            post.status = status.code
            lock.withLock {
                attempts[index] = post
                if status == .noContent, let value = post.json { received.append(value) }
            }
            return Response(status: status, headers: headers)
        }
        let (bound, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "webhook.receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        task = Task { try await app.run() }
        for await value in bound { port = value }
    }

    /// The URL to give the server.
    var url: URL { URL(string: "http://127.0.0.1:\(port)/hook")! }

    func stop() async {
        lock.withLock { stopping = true }
        task?.cancel()
        _ = await task?.result
    }

    /// A URL where nothing listens (a backend that is down): a receiver's port once it stopped.
    static func downURL() async throws -> URL {
        let receiver = WebhookReceiver()
        try await receiver.start()
        await receiver.stop()
        return receiver.url
    }
}
