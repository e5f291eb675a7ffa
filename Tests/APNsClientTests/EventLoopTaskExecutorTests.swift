import APNsClient
import NIOCore
import NIOPosix
import Testing

/// Tasks that prefer an `EventLoopTaskExecutor` run on its event loop, and a client's requests from them
/// are answered as from any other task.
@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskPreferringTheExecutorRunsOnItsLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
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
        try await group.shutdownGracefully()
    }

    @Test func requestsFromTheClientsExecutorAreAnswered() async throws {
        let harness = try await SimulatorHarness.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = try harness.client(group: group)
        let token = try await harness.startActivity().token
        let statuses = await withTaskExecutorPreference(client.taskExecutor) {
            await withTaskGroup(of: Int?.self) { tasks in
                for _ in 0..<50 {
                    tasks.addTask { try? await client.send(SimulatorHarness.update(token: token, health: 0.5, text: "on the loop")).status }
                }
                var all: [Int?] = []
                for await status in tasks { all.append(status) }
                return all
            }
        }
        #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        await client.shutdown()
        await harness.stop()
        try await group.shutdownGracefully()
    }
}
