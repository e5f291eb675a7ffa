import APNsCore
import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// One database per APNs environment: a server for the other environment refuses to start on it.
@Suite struct EnvironmentCheckTests {
    @Test(arguments: TestDatabase.available)
    func aServerForTheOtherEnvironmentRefusesToStart(store: TestStore) async throws {
        let options = ServerOptions(store: store, sender: FakeSender()) { $0.environment = .production }
        try await withServer(options) { running in
            let binding = try #require(try await running.store.environmentBinding())
            #expect(binding.environment == .production)

            let sandbox = try LivePushServer(configuration: Self.configuration(.sandbox), store: running.store, sender: FakeSender())
            do {
                try await sandbox.start()
                await sandbox.shutdown()
                Issue.record("a sandbox server started on a production database")
            } catch let error as ServerStartError {
                #expect(
                    error.description
                        == "the database serves the production APNs environment (recorded \(binding.recordedAt.ISO8601Format())), "
                        + "and this server is for sandbox: a database serves one environment, or the servers would send each "
                        + "other's pushes. Give this server a database of its own for sandbox (--database), or --environment "
                        + "production if it was meant to serve production")
            }
            #expect(sandbox.port == nil)
            #expect(try await running.store.environmentBinding() == binding, "the refused server changed nothing")
            #expect(try await running.http.get("/health", key: nil).status == 200, "the first server is unaffected")

            // Another production instance, and a server without a known environment (--url), start.
            for environment in [APNsEnvironment.production, nil] {
                let other = try LivePushServer(configuration: Self.configuration(environment), store: running.store, sender: FakeSender())
                #expect(try await other.start() > 0)
                await other.shutdown()
            }
        }
    }

    /// A server for `--url` (the simulator) records nothing: the first server with an environment does.
    @Test(arguments: TestDatabase.available)
    func aServerWithoutAnEnvironmentRecordsNone(store: TestStore) async throws {
        try await withServer(ServerOptions(store: store, sender: FakeSender())) { running in
            #expect(try await running.store.environmentBinding() == nil)
            let sandbox = try LivePushServer(configuration: Self.configuration(.sandbox), store: running.store, sender: FakeSender())
            #expect(try await sandbox.start() > 0)
            await sandbox.shutdown()
            #expect(try await running.store.environmentBinding()?.environment == .sandbox)
        }
    }

    static func configuration(_ environment: APNsEnvironment?) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.environment = environment
        configuration.workerCount = 1
        return configuration
    }
}
