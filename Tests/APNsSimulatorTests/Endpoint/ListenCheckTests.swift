import Foundation
import Testing
@testable import APNsSimulator

@Suite struct ListenCheckTests {
    @Test func aTakenPortIsReportedWithItsFlag() async throws {
        let harness = try await EndpointHarness.start()
        do {
            try await ListenCheck.check([("127.0.0.1", 0, "--port"), ("127.0.0.1", harness.port, "--control-port")])
            Issue.record("a taken port passed the check")
        } catch {
            #expect(error.description == "cannot listen on 127.0.0.1:\(harness.port): address already in use; pick another --host/--control-port (0 picks a free port)")
        }
        await harness.stop()
    }

    @Test func aFreePortPassesAndStaysFree() async throws {
        try await ListenCheck.check([("127.0.0.1", 0, "--port")])
        // Bind a port, release it, then check it: the probe itself must not keep it.
        let harness = try await EndpointHarness.start()
        let port = harness.port
        await harness.stop()
        try await ListenCheck.check([("127.0.0.1", port, "--port")])
        try await ListenCheck.check([("127.0.0.1", port, "--port")])
    }
}
