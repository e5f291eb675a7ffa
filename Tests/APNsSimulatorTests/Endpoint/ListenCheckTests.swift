import Foundation
import Testing

@testable import APNsSimulator

@Suite struct ListenCheckTests {
    @Test func aTakenPortIsReportedWithItsFlag() async throws {
        try await withEndpoint { harness in
            do throws(ListenCheck.Failure) {
                try await ListenCheck.check([("127.0.0.1", 0, "--port"), ("127.0.0.1", harness.port, "--control-port")])
                Issue.record("a taken port passed the check")
            } catch {
                #expect(
                    error.description
                        == "cannot listen on 127.0.0.1:\(harness.port): address already in use; pick another --host/--control-port (0 picks a free port)"
                )
            }
        }
    }

    @Test func aFreePortPassesAndStaysFree() async throws {
        try await ListenCheck.check([("127.0.0.1", 0, "--port")])
        // A simulator that served a connection and stopped (its side of the connection is left in
        // TIME_WAIT): restarting on the same port must pass, as the endpoint itself could bind it. And the
        // probe itself must not keep the port.
        // A port outside the kernel's ephemeral range (32768-60999), so that no other test's connection is
        // given it as its local port between the stop and the checks (which would make it truly taken). The
        // channel management endpoint takes a free port, never Apple's 2195 a running simulator holds.
        let candidates = (0..<50).map { _ in Int.random(in: 24_000...29_999) }
        let port = try await withEndpoint(onOneOf: candidates) { harness in
            try await harness.withConnection { client in
                #expect(try await client.send(harness.request(), body: EndpointHarness.payload).status == 200)
                // What this test is about, not teardown: the endpoint stops first, so its side of the
                // connection is the one left in TIME_WAIT.
                await harness.stop()
                try await client.waitForClose()
            }
            return harness.port
        }
        try await ListenCheck.check([("127.0.0.1", port, "--port")])
        try await ListenCheck.check([("127.0.0.1", port, "--port")])
    }
}
