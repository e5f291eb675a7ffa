import APNsClient
import APNsCore
import Foundation
import LivePushServer

/// Runs `body` with `livepush serve` on a loopback port the kernel picks, sending to `apns` (the
/// simulator), and stops it afterwards, whatever `body` does: the server, its APNs client, and its
/// store (the SQLite folder deleted, or the PostgreSQL schema dropped).
///
/// ```swift
/// try await withSimulator { apns in
///     try await withServer(over: apns) { server in
///         // register with server.appKey, send with server.backendKey, at server.url
///     }
/// }
/// ```
public func withServer<Result>(
    _ options: ServerOptions = ServerOptions(),
    over apns: SimulatedAPNs,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestServer) async throws -> Result
) async throws -> Result {
    var configuration = TestServer.configuration(options).apnsClientConfiguration(
        endpoint: apns.endpoint, additionalTrustRootFile: apns.caCertificatePath, channelManagementEndpoint: apns.managementEndpoint)
    // Long deadlines: on a busy machine the simulator's answer may take seconds, and a push that timed out
    // would be retried on the server's clock, which a test that moves the clock itself holds still.
    configuration.connectTimeout = .seconds(30)
    configuration.requestTimeout = .seconds(60)
    return try await apns.withClient(configuration) { client in
        var sending = options
        sending.sender = client
        return try await withServer(sending, body)
    }
}

/// ``withServer(_:over:isolation:_:)`` with the sender `options` names (a stand-in for APNs).
package func withServer<Result>(
    _ options: ServerOptions, isolation: isolated (any Actor)? = #isolation, _ body: (TestServer) async throws -> Result
) async throws -> Result {
    guard let sender = options.sender else { throw TestServerError.noSender }
    return try await ScopeGate.run {
        try await withScopedResource {
            try await TestServer.start(options, sender: sender)
        } stop: { server in
            await server.stop()
        } _: { server in
            try await body(server)
        }
    }
}

/// Why a test server did not start.
package enum TestServerError: Error, CustomStringConvertible {
    case noSender

    package var description: String {
        "a test server needs a sender: withServer(over: apns) or ServerOptions(sender:)"
    }
}
