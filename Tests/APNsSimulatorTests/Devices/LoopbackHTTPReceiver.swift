import Foundation
import LivePushTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` with a ``LoopbackHTTPReceiver`` answering `status`, and stops it afterwards, whatever `body`
/// does: a port read inside and used after the scope refuses connections.
@discardableResult
func withLoopbackHTTPReceiver<Result>(
    status: Int = 204, isolation: isolated (any Actor)? = #isolation, _ body: (LoopbackHTTPReceiver) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        try LoopbackHTTPReceiver(status: status)
    } stop: { receiver in
        receiver.stop()
    } _: { receiver in
        try await body(receiver)
    }
}

/// A minimal HTTP/1.1 server on 127.0.0.1 (ephemeral port) that records each request body and answers
/// with a fixed status. It runs on its own thread with blocking sockets, away from Swift concurrency.
final class LoopbackHTTPReceiver: @unchecked Sendable {
    struct Received: Sendable {
        var requestLine: String
        var headers: [String: String]
        var body: Data
    }

    let port: Int
    let requests: AsyncStream<Received>
    private let continuation: AsyncStream<Received>.Continuation
    private let listener: Int32
    private let status: Int
    private let finished = DispatchSemaphore(value: 0)

    fileprivate init(status: Int = 204) throws {
        self.status = status
        (requests, continuation) = AsyncStream.makeStream(of: Received.self)
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ReceiverError.socket }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw ReceiverError.socket }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in
            self.serve()
            // Only this thread closes the socket, after its last accept: closing it from stop() while
            // this thread is about to call accept could let the number be reused by another test's
            // socket, whose connections this thread would then take (seen: a webhook post lost).
            close(self.listener)
            self.finished.signal()
        }
        thread.start()
    }

    enum ReceiverError: Error { case socket }

    /// Stops accepting and waits (briefly) until the serving thread has closed the socket, so the port
    /// refuses connections when this returns.
    fileprivate func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
        continuation.finish()
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            if let received = read(connection) { continuation.yield(received) }
            let reply = "HTTP/1.1 \(status) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = reply.withCString { send(connection, $0, strlen($0), 0) }
            close(connection)
        }
    }

    private func read(_ connection: Int32) -> Received? {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let range = data.range(of: separator) {
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if data.count - range.upperBound >= length {
                    let body = data[range.upperBound..<(range.upperBound + length)]
                    return Received(requestLine: head.first ?? "", headers: headers, body: Data(body))
                }
            }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: chunk[0..<count])
        }
    }
}
