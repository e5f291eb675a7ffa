import Foundation
import Hummingbird
import LiveActivity
import Logging
import NIOCore

/// A loopback HTTP server that keeps the JSON bodies POSTed to it.
final class WebhookReceiver: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [JSONValue] = []
    private var task: Task<Void, any Error>?
    private(set) var port = 0
    /// How long each answer waits (a slow backend).
    private let delay: Duration

    init(delay: Duration = .zero) {
        self.delay = delay
    }

    var bodies: [JSONValue] { lock.withLock { received } }

    func start() async throws {
        let router = Router()
        router.post("/hook") { [self] request, _ -> HTTPResponse.Status in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            if delay > .zero { try await Task.sleep(for: delay) }
            if let value = try? JSONValue.parse(Data(buffer.readableBytesView)) {
                lock.withLock { received.append(value) }
            }
            return .noContent
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

    func stop() async {
        task?.cancel()
        _ = await task?.result
    }
}
