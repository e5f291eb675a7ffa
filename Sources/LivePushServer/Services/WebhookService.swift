import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the webhook receives (POST, JSON, ISO 8601 dates).
public struct WebhookEvent: Sendable, Hashable, Codable {
    /// `token.invalid` or `activity.ended`.
    public var event: String
    public var activityId: String?
    /// For push-to-start tokens: the stored token's id.
    public var pushToStartTokenId: String?
    public var userId: String?
    /// The APNs reason (token.invalid) or why the activity ended (`backend`, `app`, `maximumDuration`).
    public var reason: String
    /// The token, shortened (first and last 4 hex digits).
    public var token: String?
    public var at: Date

    public init(event: String, activityId: String? = nil, pushToStartTokenId: String? = nil, userId: String? = nil,
                reason: String, token: String? = nil, at: Date) {
        self.event = event
        self.activityId = activityId
        self.pushToStartTokenId = pushToStartTokenId
        self.userId = userId
        self.reason = reason
        self.token = token
        self.at = at
    }
}

/// POSTs events to the configured webhook in the background: never blocks a request or a worker;
/// failures are logged and dropped.
final class WebhookNotifier: Sendable {
    private let url: URL?
    private let logger: Logger
    private let timeout: TimeInterval

    init(url: URL?, logger: Logger, timeout: TimeInterval = 10) {
        self.url = url
        self.logger = logger
        self.timeout = timeout
    }

    func notify(_ event: WebhookEvent) {
        guard let url else { return }
        let logger = logger
        let timeout = timeout
        Task.detached {
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do {
                request.httpBody = try APIResponse.encoder().encode(event)
                let (_, response) = try await URLSession.shared.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                if !(200..<300).contains(status) {
                    logger.warning("webhook answered with an error status", metadata: ["event": "\(event.event)", "status": "\(status)"])
                }
            } catch {
                logger.warning("webhook could not be delivered", metadata: ["event": "\(event.event)", "error": "\(error.localizedDescription)"])
            }
        }
    }
}
