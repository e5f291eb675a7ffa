import APNsCore
import Foundation

extension DeviceWorld {
    /// Expires a token (an activity's update token or a push-to-start token), as APNs does when a device
    /// token is no longer valid: from now on every push to it gets 410 `ExpiredToken`, with the time of
    /// the expiry as the body's `timestamp` (docs/apns-protocol.md §4.3). Returns that time.
    @discardableResult
    public func expireToken(_ token: String) throws(DeviceWorldError) -> Date {
        let key = token.lowercased()
        guard tokens[key] != nil else {
            throw DeviceWorldError(.notFound, field: "token", "no simulated device holds token \(DeviceToken.shorten(key))")
        }
        let now = clock.now()
        if let since = tokens[key]?.expiredSince { return since }
        tokens[key]?.expiredSince = now
        publish(.tokenExpired, data: ["token": .string(key)], at: now)
        return now
    }
}
