import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import LivePushTesting
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `body` with a control server on 127.0.0.1 (an ephemeral port), and stops it afterwards, whatever
/// `body` does.
@discardableResult
func withControl<Result>(
    rules: DeviceRules = DeviceRules(), clock: any WallClock = SystemWallClock(), heartbeat: Duration = .seconds(15),
    isolation: isolated (any Actor)? = #isolation, _ body: (ControlHarness) async throws -> Result
) async throws -> Result {
    try await withScopePlace {
        try await withScopedResource {
            try await ControlHarness.start(rules: rules, clock: clock, heartbeat: heartbeat)
        } stop: { harness in
            await harness.stop()
        } _: { harness in
            try await body(harness)
        }
    }
}

/// A control server on 127.0.0.1 with an ephemeral port, and a JSON client for it
/// (``withControl(rules:clock:heartbeat:isolation:_:)``).
struct ControlHarness {
    let world: DeviceWorld
    let keys: TrustedKeys
    let faults: FaultInjector
    let port: Int
    let task: Task<Void, any Error>

    /// Hummingbird logs the cancellation of open connections at error level when a test stops the server.
    static let quietLogger: Logger = {
        var logger = Logger(label: "test.control")
        logger.logLevel = .critical
        return logger
    }()

    static let caPEM = "-----BEGIN CERTIFICATE-----\nTESTCA\n-----END CERTIFICATE-----\n"

    fileprivate static func start(
        rules: DeviceRules = DeviceRules(), clock: any WallClock = SystemWallClock(), heartbeat: Duration = .seconds(15)
    ) async throws -> ControlHarness {
        let world = DeviceWorld(clock: clock, rules: rules)
        let keys = TrustedKeys()
        let faults = FaultInjector(seed: 1)
        var server = ControlServer(
            world: world, keys: keys, faults: faults, host: "127.0.0.1", port: 0, caCertificatePEM: caPEM,
            logger: Self.quietLogger)
        server.heartbeatInterval = heartbeat
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            try await server.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HarnessError.serverDidNotStart }
        return ControlHarness(world: world, keys: keys, faults: faults, port: port, task: task)
    }

    fileprivate func stop() async {
        task.cancel()
        _ = await task.result
    }

    enum HarnessError: Error { case serverDidNotStart, notHTTP, timedOut }

    struct Answer {
        var status: Int
        var json: JSONValue?
        var text: String
        var contentType: String?
    }

    /// One request with an optional raw JSON body.
    func request(_ method: String, _ path: String, body: String? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError.notHTTP }
        return Answer(
            status: http.statusCode, json: try? JSONValue.parse(data), text: String(decoding: data, as: UTF8.self),
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

    func post(_ path: String, _ body: JSONValue) async throws -> Answer {
        try await request("POST", path, body: String(decoding: body.serialized(), as: UTF8.self))
    }
}

/// Runs `body` with a reader of the streaming response at `url`, and stops reading afterwards, whatever
/// `body` does.
@discardableResult
func withStreamingReader<Result>(
    _ url: URL, isolation: isolated (any Actor)? = #isolation, _ body: (StreamingReader) async throws -> Result
) async throws -> Result {
    try await withScopePlace {
        try await withScopedResource {
            let reader = StreamingReader()
            reader.start(url)
            return reader
        } stop: { reader in
            reader.stop()
        } _: { reader in
            try await body(reader)
        }
    }
}

/// Reads a streaming response (Server-Sent Events) chunk by chunk.
final class StreamingReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let chunks: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private var session: URLSession?

    override init() {
        (chunks, continuation) = AsyncStream.makeStream(of: String.self)
        super.init()
    }

    fileprivate func start(_ url: URL) {
        let session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        self.session = session
        session.dataTask(with: url).resume()
    }

    fileprivate func stop() {
        session?.invalidateAndCancel()
        continuation.finish()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(String(decoding: data, as: UTF8.self))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}

/// Reads `stream` until the text so far contains `marker`; gives up after `seconds` (a hang guard, not a
/// speed assertion).
func readUntil(_ marker: String, in iterator: inout AsyncStream<String>.Iterator, buffer: inout String, seconds: Double = 30) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !buffer.contains(marker) {
        guard Date() < deadline, let chunk = await iterator.next() else { return false }
        buffer += chunk
    }
    return true
}
