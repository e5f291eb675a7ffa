import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// The request framing the listener takes, over raw sockets: `chunked` is the only transfer coding, and
/// a malformed chunk is a bad request, not a body too large.
@Suite struct TransferCodingTests {
    typealias RawConnection = ListenerDeadlineTests.RawConnection

    /// The answer to `request`; waits for the server to close the connection when `closes`, else for a JSON body.
    static func answer(_ harness: TestServer, _ request: String, closes: Bool = true) async throws -> (status: String, text: String, closed: Bool) {
        try await RawConnection.with(port: try #require(harness.server.port)) { connection in
            try await connection.send(request)
            _ = await eventually(timeout: .seconds(10)) {
                connection.text.contains("\r\n\r\n") && (closes ? connection.closed != nil : connection.text.hasSuffix("}"))
            }
            let text = connection.text
            let status = text.split(separator: "\r\n").first.map(String.init) ?? ""
            return (status, text, connection.closed != nil)
        }
    }

    static func post(transferEncoding: String, body: String) -> String {
        "POST /v1/activities HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestServer.appKey)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: \(transferEncoding)\r\n\r\n\(body)"
    }

    static func chunked(_ text: String) -> String {
        "\(String(text.utf8.count, radix: 16))\r\n\(text)\r\n0\r\n\r\n"
    }

    @Test func onlyChunkedIsAcceptedAsATransferCoding() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let json = registrationJSON(activityID: "a1", token: String(repeating: "ab", count: 32))
            for coding in ["gzip, chunked", "chunked, chunked", "identity, chunked", "x-custom,chunked"] {
                let answer = try await Self.answer(harness, Self.post(transferEncoding: coding, body: Self.chunked(json)))
                #expect(answer.status == "HTTP/1.1 400 Bad Request", "\(coding): \(answer.text)")
                // The HTTP/1 decoder refuses `chunked, chunked` itself (a 400 without a body); the others are ours.
                if coding != "chunked, chunked" {
                    #expect(
                        answer.text.contains(#""rule":"transferEncoding""#) && answer.text.contains(#""field":"Transfer-Encoding""#),
                        "\(coding): \(answer.text)")
                }
                #expect(answer.closed, "the connection is closed after a refused framing")
            }
            #expect(try await harness.store.activity(id: "a1") == nil, "nothing of a refused request is done")
            let plain = try await Self.answer(harness, Self.post(transferEncoding: "Chunked", body: Self.chunked(json)), closes: false)
            #expect(plain.status == "HTTP/1.1 201 Created", "\(plain.text)")
        }
    }

    /// Issue 30, finding 10: HTTP/1.0 has no transfer codings (RFC 9112 §6.1: faulty framing), so a
    /// chunked HTTP/1.0 request is refused and its connection closed; nothing of it is done.
    @Test func chunkedIsRefusedOnHTTP10() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let json = registrationJSON(activityID: "a10", token: String(repeating: "cd", count: 32))
            let request = Self.post(transferEncoding: "chunked", body: Self.chunked(json)).replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0")
            let answer = try await Self.answer(harness, request)
            #expect(answer.status.hasSuffix("400 Bad Request"), "\(answer.text)")
            #expect(answer.text.contains(#""rule":"transferEncoding""#) && answer.text.contains("HTTP/1.0"), "\(answer.text)")
            #expect(answer.closed)
            #expect(try await harness.store.activity(id: "a10") == nil)
            // HTTP/1.0 with Content-Length is fine.
            let plain =
                "POST /v1/activities HTTP/1.0\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestServer.appKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
            let accepted = try await Self.answer(harness, plain, closes: false)
            #expect(accepted.text.contains(" 201 Created"), "\(accepted.text)")
        }
    }

    @Test func aMalformedChunkSizeIsABadRequest() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let answer = try await Self.answer(harness, Self.post(transferEncoding: "chunked", body: "zz\r\n{}\r\n0\r\n\r\n"))
            #expect(answer.status == "HTTP/1.1 400 Bad Request", "\(answer.text)")
        }
    }
}
