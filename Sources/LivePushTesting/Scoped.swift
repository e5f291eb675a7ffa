/// Runs `body` with a resource and always stops the resource afterwards, whether `body` returns, throws
/// or is cancelled: the one teardown rule of every `with…` helper here. The stop is awaited before this
/// returns, so nothing of one test outlives it and races the next.
package func withScopedResource<Resource, Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ start: () async throws -> Resource,
    stop: (Resource) async -> Void,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    let resource = try await start()
    let result: Result
    do {
        result = try await body(resource)
    } catch {
        await stop(resource)
        throw error
    }
    await stop(resource)
    return result
}
