import NIOCore
import NIOPosix

extension ServeCommand {
    /// Makes the server's event loops (NIO's shared group, one thread per core, which also carries its HTTP
    /// connections and APNs connections) Swift Concurrency's global executor, before the server starts.
    ///
    /// A request's task then runs on the loop that read it and stays there: without this, every request
    /// and every APNs answer went from an event loop thread to Swift's own pool and back, and those thread
    /// switches took about a quarter of the server's CPU on single updates. Nothing in the server blocks
    /// a thread on the global executor: SQLite runs on each connection's own thread, PostgreSQL and HTTP
    /// are NIO's, DNS for webhooks is on a thread pool. Only `serve` does this; the tests' in-process
    /// servers run on the default executor.
    static func runTasksOnEventLoops() {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
