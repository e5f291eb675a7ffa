import Foundation
import Logging
import ServiceLifecycle
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs events to the configured webhook, in order, as a Service of the application: `notify` only
/// queues (it never blocks a request or a worker), `run` delivers, retrying a failed POST a few times.
/// On graceful shutdown it stops taking events and delivers the ones already queued before it returns
/// (each gets one more try; what still fails is logged with the event).
final class WebhookService: Service, DomainEvents, Sendable {
    private let url: URL?
    private let logger: Logger
    private let timeout: TimeInterval
    private let attempts: Int
    private let retryDelay: Duration
    private let events: AsyncStream<WebhookEvent>
    private let queue: AsyncStream<WebhookEvent>.Continuation

    /// Events waiting at once before new ones are dropped (and logged): a webhook that is down for a long
    /// time must not grow the process without bound.
    static let queueLimit = 10_000

    init(url: URL?, logger: Logger, timeout: TimeInterval = 10, attempts: Int = 3, retryDelay: Duration = .seconds(1)) {
        self.url = url
        self.logger = logger
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.retryDelay = retryDelay
        (events, queue) = AsyncStream.makeStream(of: WebhookEvent.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
    }

    /// Queues an event (no-op without a webhook URL).
    func notify(_ event: WebhookEvent) {
        guard url != nil else { return }
        switch queue.yield(event) {
        case .enqueued: break
        case .dropped:
            logger.error("webhook queue is full; event dropped", metadata: ["event": "\(event.event.rawValue)"])
        case .terminated:
            logger.warning("webhook event after shutdown not delivered", metadata: ["event": "\(event.event.rawValue)"])
        @unknown default: break
        }
    }

    func run() async {
        // A service that returns early stops the application: without a webhook, wait for shutdown.
        guard let url else { return await waitForShutdown() }
        await withGracefulShutdownHandler {
            var stopping = false
            for await event in events {
                stopping = stopping || Task.isShuttingDownGracefully
                await deliver(event, to: url, attempts: stopping ? 1 : attempts)
            }
            if Task.isCancelled {
                logger.warning("webhook delivery cut short by the shutdown timeout; events still queued are lost")
            }
        } onGracefulShutdown: {
            // Takes no more events; the loop ends once those already queued are delivered.
            self.queue.finish()
        }
    }

    private func deliver(_ event: WebhookEvent, to url: URL, attempts: Int) async {
        for attempt in 1...attempts {
            let failure = await post(event, to: url)
            guard let failure else { return }
            if attempt == attempts {
                logger.warning("webhook could not be delivered", metadata: [
                    "event": "\(event.event.rawValue)", "error": "\(failure)", "attempts": "\(attempt)",
                ])
                return
            }
            try? await Task.sleep(for: retryDelay * attempt)
        }
    }

    /// POSTs one event; nil when the webhook answered 2xx, else what went wrong.
    private func post(_ event: WebhookEvent, to url: URL) async -> String? {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try APIResponse.encoder().encode(event)
            let (_, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return (200..<300).contains(status) ? nil : "HTTP \(status)"
        } catch {
            return error.localizedDescription
        }
    }
}
