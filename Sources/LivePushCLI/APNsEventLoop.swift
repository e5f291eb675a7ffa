import NIOPosix

/// The event loop of `livepush send`'s APNs connections: one thread, on which its sending tasks also run
/// (`APNsClient.taskExecutor`), so that a push's task resumes where its answer was read. Lives as long as
/// the process. (`livepush serve` keeps the shared multi-threaded group: measured, one thread for all its
/// connections and push tasks sent fewer pushes per second.)
enum APNsEventLoop {
    static let shared = MultiThreadedEventLoopGroup(numberOfThreads: 1)
}
