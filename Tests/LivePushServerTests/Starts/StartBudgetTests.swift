import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// A user's start (`POST /v1/users/{userId}/start`) spends the device's push-to-start budget as every other
/// start does: a device over it is skipped and named, and a user none of whose devices has room gets 409.
@Suite struct StartBudgetTests {
    @Test(arguments: TestStore.available)
    func aUsersStartsStopAtTheDevicesBudget(database: TestStore) async throws {
        let options = ServerOptions(store: database, configure: { $0.pushToStartBudget = 2 })
        try await withSimulatedServer(options) { sim, server in
            let http = server.http
            let device = try #require(try await AudienceStartTests.addUsers(["ava"], sim: sim, server: server)["ava"])
            for _ in 0..<2 {
                let start = try await http.post("/v1/users/ava/start", key: TestServer.backendKey, AudienceStartTests.body(nil, sim: sim))
                #expect(start.status == 202, "\(start.text)")
            }
            let over = try await http.post("/v1/users/ava/start", key: TestServer.backendKey, AudienceStartTests.body(nil, sim: sim))
            #expect(over.status == 409 && over.errorRule == "pushToStartBudget", "\(over.text)")
            let world = sim.simulator.world
            #expect(try await eventually { try await world.device(id: device).activities.count == 2 }, "the two starts within the budget arrived")
            #expect(try await world.device(id: device).activities.count == 2, "the third was never sent")
        }
    }
}
