import APNsClient
import APNsCore
import Foundation

/// What a worker does with a push after one delivery call: the one place that reads APNs' reasons to
/// decide between done, dead token, refused, and trying again later with the outbox's back-off.
enum DeliveryDecision: Equatable, Sendable {
    /// APNs took it.
    case accepted(apnsID: String?)
    /// The token is dead: mark it invalid, never retry.
    case invalidToken(status: Int, reason: APNsReason, apnsID: String?)
    /// Refused for good (a malformed request, a forbidden topic).
    case rejected(status: Int, reason: String, apnsID: String?)
    /// Try again later, if the push has not expired by then.
    case retryLater(lastError: String, status: Int?)
    /// The client shut down under it (graceful stop): give the claim back untouched.
    case interrupted

    /// Classifies a delivery outcome: token-killing reasons, retryable answers (429, 5xx, provider-token
    /// trouble) and transport failures, and final refusals.
    static func classify(_ outcome: APNsDeliveryOutcome) -> DeliveryDecision {
        switch outcome.result {
        case .success(let response):
            if response.isSuccess { return .accepted(apnsID: response.apnsID) }
            let reason = response.reason ?? .other("HTTP \(response.status)")
            if reason.invalidatesToken {
                return .invalidToken(status: response.status, reason: reason, apnsID: response.apnsID)
            }
            switch reason.advice {
            case .retryWithBackoff, .retryOnNewConnection, .retryWithNewProviderToken:
                return .retryLater(lastError: "\(response.status) \(reason.rawValue)", status: response.status)
            case .neverRetry, .fixRequest:
                if response.status == 429 || response.status >= 500 {
                    return .retryLater(lastError: "\(response.status) \(reason.rawValue)", status: response.status)
                }
                return .rejected(status: response.status, reason: reason.rawValue, apnsID: response.apnsID)
            }
        case .failure(let error):
            if error == .shutDown { return .interrupted }
            return .retryLater(lastError: error.description, status: nil)
        }
    }

    /// The `apns-unique-id` of an accepted push: APNs sends one in the development environment only, and
    /// Apple's Push Notifications Console looks the delivery up by it.
    static func uniqueID(_ outcome: APNsDeliveryOutcome) -> String? {
        guard case .success(let response) = outcome.result, response.isSuccess else { return nil }
        return response.apnsUniqueID
    }
}
