/// Runs `body` while `work` runs beside it in a child task (a reporter sending what its journal holds, an
/// adapter following its iPhone), then cancels `work` and waits for it to end, as the app's process ending
/// would; also when `body` throws.
public func whileRunning<Result>(
    _ work: @escaping @Sendable () async -> Void, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await work() }
        defer { group.cancelAll() }
        return try await body()
    }
}
