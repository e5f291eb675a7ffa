import ServiceLifecycle

/// Returns on graceful shutdown or cancellation: what a Service with nothing to do runs, since a service
/// that returns early stops the whole application.
func waitForShutdown() async {
    try? await gracefulShutdown()
}
