import APNsAuth
import APNsClient
import Logging

/// Runs `body` with an `APNsClient` made from `configuration` and `tokens`, and shuts the client down
/// afterwards, whatever `body` does: for a client ``SimulatedAPNs/withClient(_:tokens:isolation:_:)``
/// does not make, as one that authenticates with a client certificate (`tokens: nil`) or one for an
/// endpoint where nothing, or something else, listens.
///
/// ```swift
/// try await withAPNsClient(configuration, tokens: nil) { client in
///     _ = try await client.send(request)
/// }
/// ```
public func withAPNsClient<Result>(
    _ configuration: APNsClientConfiguration,
    tokens: (any ProviderTokenProviding)?,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (APNsClient) async throws -> Result
) async throws -> Result {
    try await withQuietClient(isolation: isolation, { try APNsClient(configuration: configuration, tokens: tokens, logger: $0) }, body)
}

/// Runs `body` with an `APNsClient` that signs each push with the key of `keyring` for its topic (one
/// connection pool per key), and shuts the client down afterwards, whatever `body` does.
///
/// ```swift
/// try await withAPNsClient(apns.clientConfiguration(), keyring: keyring) { client in
///     _ = try await client.send(request)
/// }
/// ```
public func withAPNsClient<Result>(
    _ configuration: APNsClientConfiguration,
    keyring: ProviderKeyring,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (APNsClient) async throws -> Result
) async throws -> Result {
    try await withQuietClient(isolation: isolation, { try APNsClient(configuration: configuration, keyring: keyring, logger: $0) }, body)
}

/// Runs `body` with the client `make` creates with a logger of critical events only, and shuts it down
/// afterwards, whatever `body` does.
private func withQuietClient<Result>(
    isolation: isolated (any Actor)?, _ make: (Logger) throws -> APNsClient, _ body: (APNsClient) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "livepush.testing.client")
    logger.logLevel = .critical
    return try await withScopedResource(isolation: isolation) {
        try make(logger)
    } stop: { client in
        await client.shutdown()
    } _: { client in
        try await body(client)
    }
}
