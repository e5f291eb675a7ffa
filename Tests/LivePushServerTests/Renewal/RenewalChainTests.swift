import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import Testing

/// 8-hour renewal over real sockets: the simulator's clock, moved by its control API, drives the
/// server's lifecycle sweep; the test plays the app.
@Suite struct RenewalChainTests {
    /// 20 simulated hours, an update every hour, by the group or by a renewed activity's id: two renewals, at 7h45m and 15h30m, make a chain of three activities, and the
    /// activity running on the iPhone shows every update.
    @Test(arguments: TestDatabase.available)
    func aChainOfThreeActivitiesOverTwentyHoursLosesNoUpdate(database: TestStore) async throws {
        try await RenewalHarness.run(database) { world, receiver in
            try await world.storePushToStartToken()
            let first = try await world.startFirstActivity()
            var chain = [first]
            var renewedAt = 0
            for quarter in 1...80 {
                try await world.advance(minutes: 15)
                if quarter == 31 || quarter == 62 {  // 7h45m and 15h30m: the successor's start arrives
                    let running = try await eventually(timeout: .seconds(20)) { try await world.activeOnDevice().count == 2 }
                    #expect(running, "the renewal's start reached the iPhone at \(quarter * 15) minutes")
                    let successor = try #require(try await world.activeOnDevice().last)
                    #expect(successor.attributes == RenewalHarness.attributes)
                    #expect(successor.contentState["hour"]?.numberValue == Double(quarter / 4), "started with the latest state")
                    let token = try #require(successor.pushToken, "input-push-token gave it an update token")
                    // The first is registered naming the activity it takes over from; the second is linked
                    // by the server to the start it sent.
                    let renews = chain.count == 1 ? #","renews":"\#(chain[0])""# : ""
                    #expect(try await world.register(successor.activityID, token: token, extra: renews).status == 201)
                    chain.append(successor.activityID)
                    renewedAt = quarter
                    let oldEnded = try await eventually(timeout: .seconds(20)) { try await world.activeOnDevice().count == 1 }
                    #expect(oldEnded, "the old activity was ended once the new one was linked")
                }
                guard quarter % 4 == 0 else { continue }
                let hour = quarter / 4
                // Even hours to the group; odd ones by the id of the activity before the running one (a renewed
                // one: the send follows the chain), or the first while it runs.
                let renewedLately = chain.count > 1 && quarter - renewedAt <= 16  // the old one is still stored
                let id = renewedLately ? chain[chain.count - 2] : chain[chain.count - 1]
                let path = hour % 2 == 0 ? "/v1/groups/party/update" : "/v1/activities/\(id)/update"
                let update = try await world.server.http.post(path, key: TestServer.backendKey, #"{"contentState":{"hour":\#(hour)}}"#)
                #expect(update.status == 202, "\(update.text)")
                let shown = try await eventually(timeout: .seconds(20)) {
                    try await world.activeOnDevice().last?.contentState["hour"]?.numberValue == Double(hour)
                }
                #expect(shown, "hour \(hour) reached the running activity")
            }
            #expect(chain.count == 3)
            // The first was forgotten (an hour after its dismissal, 4 hours after its end); the others tell the chain.
            let second = try await world.detail(chain[1])
            let third = try await world.detail(chain[2])
            #expect(second["renewal"]?["renews"]?.stringValue == chain[0] && second["renewal"]?["renewedBy"]?.stringValue == chain[2])
            #expect(second["renewal"]?["state"] == "renewed" && second["activity"]?["state"] != "active")
            #expect(third["renewal"]?["renews"]?.stringValue == chain[1] && third["renewal"]?["state"] == "waiting")
            #expect(third["activity"]?["groups"] == ["party"], "the group goes down the chain")
            // The server records a push after APNs took it: the device may show hour 20 a moment before.
            let recorded = try await eventually(timeout: .seconds(20)) {
                try await world.detail(chain[2])["activity"]?["lastContentState"]?["hour"] == 20
            }
            #expect(recorded, "the last update is recorded as the running activity's state")
            let renewed = await eventually { receiver.bodies.filter { $0["event"] == "activity.renewed" }.count == 2 }
            #expect(renewed)
            let events = receiver.bodies.filter { $0["event"] == "activity.renewed" }
            #expect(Set(events.compactMap { $0["renewedBy"]?.stringValue }) == Set(chain.dropFirst()))
        }
    }
}
