import APNsCore
import Foundation

/// A token APNs refused for good (`Unregistered`, `BadDeviceToken`, ...), to be marked invalid wherever it
/// is stored: as an activity's update token and as a push-to-start token.
package struct TokenInvalidation: Sendable, Hashable {
    package var token: DeviceToken
    /// APNs' reason.
    package var reason: String
    /// When the refused push was sent: a token the app reported again since stays valid.
    package var at: Date

    package init(token: DeviceToken, reason: String, at: Date) {
        self.token = token
        self.reason = reason
        self.at = at
    }
}

/// What a worker has to record after sending a claimed batch, for ``OutboxStore/settle(owner:_:at:journal:)``.
package struct OutboxSettlement: Sendable {
    /// The pushes that reached a final outcome.
    package var results: [DeliveryResult]
    /// The pushes to try again: their attempts, next attempt and last error set.
    package var retries: [OutboxItem]
    /// The tokens APNs refused for good.
    package var invalidations: [TokenInvalidation]
    /// The batch's pushes as the worker claimed them: the records of `results` are made from these (what a
    /// record keeps of its push does not change once it is accepted), and the outbox rows are removed
    /// without being read back. A result whose push is not among them is recorded from its row.
    package var claimed: [OutboxItem]

    package init(
        results: [DeliveryResult] = [], retries: [OutboxItem] = [], invalidations: [TokenInvalidation] = [], claimed: [OutboxItem] = []
    ) {
        self.results = results
        self.retries = retries
        self.invalidations = invalidations
        self.claimed = claimed
    }

    package var isEmpty: Bool { results.isEmpty && retries.isEmpty && invalidations.isEmpty }
}

/// What ``OutboxStore/settle(owner:_:at:journal:)`` recorded.
package struct SettlementReport: Sendable {
    /// The final outcomes, as ``OutboxStore/complete(owner:results:at:)`` reports them.
    package var completion: CompletionReport
    /// The retries the owner no longer held (taken over after its lease ended): left as they were.
    package var retriesNotHeld: [UUID]
    /// The activities and push-to-start tokens whose token this call marked invalid.
    package var invalidated: InvalidatedTokens

    package init(completion: CompletionReport, retriesNotHeld: [UUID], invalidated: InvalidatedTokens) {
        self.completion = completion
        self.retriesNotHeld = retriesNotHeld
        self.invalidated = invalidated
    }
}

/// The records whose token was marked invalid.
package struct InvalidatedTokens: Sendable, Hashable {
    package var activities: [ActivityRecord] = []
    package var pushToStartTokens: [PushToStartTokenRecord] = []

    package init(activities: [ActivityRecord] = [], pushToStartTokens: [PushToStartTokenRecord] = []) {
        self.activities = activities
        self.pushToStartTokens = pushToStartTokens
    }

    package var count: Int { activities.count + pushToStartTokens.count }
}
