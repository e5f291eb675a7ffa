import NIOCore

/// Runs Swift tasks on one NIO event loop. A task that awaits requests on connections of that loop then
/// resumes on the thread that read the answer, instead of hopping to Swift's global executor and back for
/// each request. See ``APNsClient/taskExecutor``.
public final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the event loop is thread-safe and never changes.
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
