import ServiceLifecycle

/// Returns on graceful shutdown or cancellation: what a Service with nothing to do runs, since a service
/// that returns early stops the whole application.
func waitForShutdown() async {
    try? await gracefulShutdown()
}

/// Runs `body` until it returns; graceful shutdown or cancellation calls `stop`, which makes it finish
/// what it has under way and return.
func untilShutdown(stop: @escaping @Sendable () -> Void, _ body: () async -> Void) async {
    await withTaskCancellationHandler {
        await withGracefulShutdownHandler {
            await body()
        } onGracefulShutdown: {
            stop()
        }
    } onCancel: {
        stop()
    }
}
