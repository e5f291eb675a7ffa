import APNsCore
import Hummingbird
import Synchronization

/// Which methods each route path takes, for answering a known path with the wrong method 405 and an
/// `Allow` header instead of 404. Filled once the router has its routes.
final class MethodTable: Sendable {
    private let routes = Mutex<[(segments: [Substring], method: HTTPRequest.Method)]>([])

    /// Records the router's routes (`/v1/activities/{activityId}` and its method).
    func record(_ list: [(path: String, method: HTTPRequest.Method)]) {
        routes.withLock { $0 = list.map { (Self.segments($0.path), $0.method) } }
    }

    /// The methods the routes matching `path` take; empty when no route has this path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let requested = Self.segments(path)
        return routes.withLock { routes in
            routes.filter { route in
                route.segments.count == requested.count
                    && zip(route.segments, requested).allSatisfy { Self.isCapture($0) || $0 == $1 }
            }.map(\.method)
        }
    }

    /// `{name}` (how Hummingbird describes a path parameter) or `:name`.
    private static func isCapture(_ segment: Substring) -> Bool {
        segment.hasPrefix("{") || segment.hasPrefix(":")
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
