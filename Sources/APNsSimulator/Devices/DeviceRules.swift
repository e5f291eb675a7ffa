import Foundation

/// How the simulated devices (and APNs' token bookkeeping in front of them) behave. Every number Apple
/// does not publish is a setting here.
public struct DeviceRules: Sendable {
    /// Answer 200 for tokens no simulated device owns (the push is recorded, nothing is applied).
    /// Off by default: APNs answers `BadDeviceToken`.
    public var acceptUnknownTokens: Bool = false
    /// Let a device's `webhookURL` point anywhere; off by default: only loopback (`localhost`,
    /// 127.0.0.0/8, `::1`), so that the control API cannot make the simulator post to other machines.
    public var allowRemoteWebhooks: Bool = false
    /// Pushes to one token within a sliding window past which APNs answers 429 `TooManyRequests`;
    /// nil turns the check off (load tests).
    public var tooManyRequests: RequestRateLimit? = RequestRateLimit(maximumPushes: 300, window: 10)
    /// How long a rotated-out token keeps working before it answers 410 `Unregistered` (0: at once).
    public var tokenRetirementDelay: TimeInterval = 0
    /// How long an ended activity stays on the Lock Screen when the end gives no dismissal date.
    public var defaultDismissalDelay: TimeInterval = 4 * 3600
    /// The longest an ended activity may stay on the Lock Screen; later dismissal dates are capped.
    public var maximumDismissalDelay: TimeInterval = 4 * 3600
    /// After this long active the system ends an activity.
    public var maximumActiveDuration: TimeInterval = 8 * 3600
    /// After this long in total (active plus ended) the system removes an activity.
    public var maximumTotalDuration: TimeInterval = 12 * 3600
    /// Priority-10 update/end pushes one activity may apply per sliding hour. Apple does not publish
    /// the number; past it, priority-10 pushes are throttled: recorded and dropped, never applied later.
    /// nil: no budget.
    public var hourlyPriority10Budget: Int? = 24
    /// The hourly budget when the device has frequent pushes enabled (`NSSupportsLiveActivitiesFrequentUpdates`).
    public var frequentHourlyPriority10Budget: Int? = 240
    /// Starts by push-to-start one app on one device may apply within the window. Past it the device
    /// drops further starts (APNs still answers 200; the device logs "Push-to-start budget exceeded").
    /// Field reports give about 10 starts in a short window, not raised by
    /// `NSSupportsLiveActivitiesFrequentUpdates`; Apple publishes neither number. nil: no budget.
    public var pushToStartBudget: RequestRateLimit? = RequestRateLimit(maximumPushes: 10, window: 3600)
    /// Issue an update token for an activity started by push-to-start even without `input-push-token: 1`,
    /// as iOS 17.2–17.x does through `pushTokenUpdates`.
    public var issueUpdateTokenWithoutInputPushToken: Bool = true
    /// Ignore an update whose timestamp equals the current one, not only older ones. Off by default:
    /// Apple's rule is "older", so an equal timestamp is applied.
    public var ignoreEqualTimestamps: Bool = false
    /// The byte length of generated activity update tokens (longer than 32, as real ones are).
    public var updateTokenByteCount: Int = 80
    /// The byte length of generated push-to-start tokens.
    public var pushToStartTokenByteCount: Int = 40
    /// How many pushes each activity and device keeps in its history.
    public var historyLimit: Int = 500
    /// How many exchanges the push log keeps.
    public var pushLogLimit: Int = 2000
    /// How many events each event-stream subscriber buffers before dropping the oldest.
    public var subscriberBufferSize: Int = 1024

    public init() {}
}

/// N pushes within a window of seconds.
public struct RequestRateLimit: Sendable, Hashable {
    public var maximumPushes: Int
    public var window: TimeInterval

    public init(maximumPushes: Int, window: TimeInterval) {
        self.maximumPushes = maximumPushes
        self.window = window
    }
}
