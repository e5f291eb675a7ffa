import Foundation

// The documented UIKit and Foundation signatures LivePushKit's adapter calls to notice the app coming to the
// foreground, mirrored for Linux, where neither UIKit nor `NotificationCenter.notifications(named:)` exists.
// Test-only: never a product, never shipped.

@MainActor
open class UIApplication {
    public static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
}

extension NotificationCenter {
    /// An asynchronous sequence of the notifications named `name`, as Foundation has it on Apple's systems.
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
        let (stream, continuation) = AsyncStream<Notification.Name>.makeStream()
        let observer = ObserverToken(addObserver(forName: name, object: object, queue: nil) { continuation.yield($0.name) })
        continuation.onTermination = { [weak self] _ in self?.removeObserver(observer.token) }
        return Notifications(stream: stream)
    }

    public struct Notifications: AsyncSequence {
        public typealias Element = Notification
        let stream: AsyncStream<Notification.Name>
        public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<Notification.Name>.Iterator
            public mutating func next() async -> Notification? { await base.next().map { Notification(name: $0) } }
        }
    }
}

/// The observer token, handed to the stream's termination handler (NotificationCenter is thread-safe).
private final class ObserverToken: @unchecked Sendable {
    let token: any NSObjectProtocol
    init(_ token: any NSObjectProtocol) { self.token = token }
}
