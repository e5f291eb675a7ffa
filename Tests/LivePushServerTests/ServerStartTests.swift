import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Starting the server where it cannot listen.
@Suite struct ServerStartTests {
    @Test func aTakenPortFailsWithAClearErrorBeforeAnyBackgroundWork() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { running in
            var configuration = ServerConfiguration()
            configuration.port = try #require(running.server.port)
            configuration.appKeys = [TestServer.appKey]
            configuration.backendKeys = [TestServer.backendKey]
            let second = try LivePushServer(configuration: configuration, store: running.store, sender: FakeSender())
            do {
                try await second.start()
                Issue.record("a second server started on a taken port")
            } catch let error as ServerStartError {
                #expect(
                    error.description
                        == "cannot listen on 127.0.0.1:\(configuration.port): address already in use; pick another --host/--port (0 picks a free port)"
                )
            }
            #expect(second.port == nil)
            // The first server is unaffected.
            #expect(try await running.http.get("/health", key: nil).status == 200)
        }
    }

    @Test func aStoppedServerIsNotStartedAgain() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            await harness.server.shutdown()
            await #expect(throws: ServerStartError.self) { try await harness.server.start() }
        }
    }
}
