/// Why the demo could not start or play.
package enum DemoError: Error, Sendable, CustomStringConvertible {
    /// An option is out of range.
    case invalidOption(option: String, rule: String)
    /// A part of the demo (simulator, store, APNs client, server, a player's app) did not start.
    case startFailed(component: String, detail: String)
    /// The simulated world refused a request of the app (adding a device, starting an activity).
    case device(String)
    /// The server answered an API request with an error.
    case api(method: String, path: String, status: Int, message: String)
    /// The server could not be reached.
    case unreachable(method: String, path: String, detail: String)
    /// An app never got its activity token registered with the server.
    case registrationTimedOut(heroes: [String], detail: String)
    /// `play()` was called twice.
    case alreadyPlayed
    /// The task playing the adventure was cancelled.
    case cancelled

    package var description: String {
        switch self {
        case .invalidOption(let option, let rule):
            return "\(option) \(rule)"
        case .startFailed(let component, let detail):
            return "the \(component) did not start: \(detail)"
        case .device(let detail):
            return "the simulated device refused the app's request: \(detail)"
        case .api(let method, let path, let status, let message):
            return "\(method) \(path) answered \(status): \(message)"
        case .unreachable(let method, let path, let detail):
            return "\(method) \(path) failed: \(detail)"
        case .registrationTimedOut(let heroes, let detail):
            return "the app never registered the activity token of \(heroes.joined(separator: ", ")) with the server (\(detail))"
        case .alreadyPlayed:
            return "this demo has already played its adventure; start a new one"
        case .cancelled:
            return "the adventure was interrupted"
        }
    }
}

extension DemoError {
    /// Runs one step of starting `component` (the simulator, the store, the server, …): any error it throws
    /// becomes ``startFailed(component:detail:)``.
    @discardableResult
    static func starting<T>(_ component: String, _ step: () async throws -> T) async throws(DemoError) -> T {
        do {
            return try await step()
        } catch {
            throw .startFailed(component: component, detail: "\(error)")
        }
    }
}
