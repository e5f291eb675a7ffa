import APNsClient
import LivePushTesting
import NIOCore
import NIOPosix
import Testing

/// Tasks that prefer an `EventLoopTaskExecutor` run on its event loop, and a client's requests from them
/// are answered as from any other task.
@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskPreferringTheExecutorRunsOnItsLoop() async throws {
        try await withEventLoopGroup { group in
            let executor = EventLoopTaskExecutor(group.next())
            #expect(!executor.eventLoop.inEventLoop, "the test itself runs elsewhere")
            let onLoop = await withTaskExecutorPreference(executor) { executor.eventLoop.inEventLoop }
            #expect(onLoop)
            let children = await withTaskGroup(of: Bool.self) { tasks in
                for _ in 0..<20 { tasks.addTask(executorPreference: executor) { executor.eventLoop.inEventLoop } }
                var all: [Bool] = []
                for await onLoop in tasks { all.append(onLoop) }
                return all
            }
            #expect(children.count == 20 && children.allSatisfy { $0 })
        }
    }

    @Test func requestsFromTheClientsExecutorAreAnswered() async throws {
        try await withSimulator(Rangers.simulator()) { apns in
            try await withEventLoopGroup { group in
                try await withScopedResource {
                    try APNsClient(configuration: apns.clientConfiguration(), tokens: apns.tokens(), group: group)
                } stop: { client in
                    await client.shutdown()
                } _: { client in
                    let token = try await apns.startRangersActivity().pushToken
                    let statuses = await withTaskExecutorPreference(client.taskExecutor) {
                        await withTaskGroup(of: Int?.self) { tasks in
                            for _ in 0..<50 {
                                tasks.addTask { try? await client.send(Rangers.update(token: token, health: 0.5, text: "on the loop")).status }
                            }
                            var all: [Int?] = []
                            for await status in tasks { all.append(status) }
                            return all
                        }
                    }
                    #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
                }
            }
        }
    }
}
