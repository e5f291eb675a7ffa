/// Runs `body` with the simulator and `livepush serve` sending to it, both on loopback ports the kernel
/// picks, and stops both afterwards, whatever `body` does: the scope of ``withServer(_:over:isolation:_:)``
/// inside that of ``withSimulator(_:isolation:_:)``, for the many tests that need the two together.
///
/// ```swift
/// try await withSimulatedServer(ServerOptions(store: .sqlite)) { apns, server in
///     let activity = try await apns.startActivity(contentState: ["score": 0])
///     // register it at server.url with server.appKey, update it with server.backendKey
/// }
/// ```
public func withSimulatedServer<Result>(
    _ options: ServerOptions = ServerOptions(),
    simulator: SimulatorOptions = SimulatorOptions(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SimulatedAPNs, TestServer) async throws -> Result
) async throws -> Result {
    try await withSimulator(simulator) { apns in
        try await withServer(options, over: apns) { server in
            try await body(apns, server)
        }
    }
}
