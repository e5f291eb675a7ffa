import Foundation
import PushStore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs one stored webhook event, signed, to the webhook URL.
///
/// Foundation's URLSession (FoundationNetworking on Linux): the server target does not depend on
/// async-http-client, and one JSON POST at a time per event, with a timeout, needs nothing more.
final class WebhookPoster: Sendable {
    private let url: URL
    private let secret: String
    private let timeout: TimeInterval
    private let session: URLSession

    init(url: URL, secret: String, timeout: TimeInterval) {
        self.url = url
        self.secret = secret
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    /// POSTs `delivery` signed at `date`; nil when the webhook answered 2xx, else what went wrong.
    func post(_ delivery: WebhookDelivery, at date: Date) async -> String? {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = delivery.body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(delivery.id.uuidString.lowercased(), forHTTPHeaderField: WebhookSignature.eventIdHeader)
        let timestamp = Int(date.timeIntervalSince1970.rounded(.down))
        request.setValue(WebhookSignature.value(secret: secret, timestamp: timestamp, body: delivery.body),
                         forHTTPHeaderField: WebhookSignature.signatureHeader)
        do {
            let (_, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return (200..<300).contains(status) ? nil : "HTTP \(status)"
        } catch {
            return error.localizedDescription
        }
    }

    /// Lets the requests under way finish, then frees the session.
    func close() {
        session.finishTasksAndInvalidate()
    }
}
