import APNsClient
import APNsCore
import Foundation
import LivePushTesting
import NIOPosix
import Testing

/// `withSimulator` as a user's test would use it, and its promise: everything it started is stopped and
/// deleted when the body ends, also when the body throws.
@Suite struct SimulatorScopeTests {
    /// The README's example: a push through `APNsClient`, and what the simulated iPhone shows.
    @Test func anUpdateReachesTheSimulatedIPhone() async throws {
        try await withSimulator { apns in
            let activity = try await apns.startActivity(contentState: ["score": 0])
            let response = try await apns.withClient { client in
                try await client.send(apns.update(activity, contentState: ["score": 1]))
            }
            #expect(response.status == 200)
            #expect(try await apns.contentState(of: activity)["score"] == 1)
        }
    }

    struct Planned: Error {}

    @Test func aThrowingBodyStillStopsTheSimulatorAndDeletesItsFiles() async throws {
        var port = 0
        var folder = URL(fileURLWithPath: "/")
        await #expect(throws: Planned.self) {
            try await withSimulator { apns in
                port = try #require(apns.simulator.apnsPort)
                folder = apns.directory
                #expect(FileManager.default.fileExists(atPath: apns.caCertificatePath))
                throw Planned()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the certificates' folder is deleted")
        #expect(!(await Self.accepts(port: port)), "nothing listens on the simulator's port any more")
    }

    @Test func aManualClockMovesTheSimulatorsTime() async throws {
        let clock = ManualWallClock(Date())
        try await withSimulator(SimulatorOptions(clock: clock)) { apns in
            let activity = try await apns.startActivity(contentState: ["score": 0])
            clock.advance(by: 9 * 3600)
            let snapshot = try await apns.snapshot(of: activity)
            #expect(snapshot.state != .active, "past 8 hours an activity is no longer active: \(snapshot.state)")
        }
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    static func accepts(port: Int) async -> Bool {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }
}
