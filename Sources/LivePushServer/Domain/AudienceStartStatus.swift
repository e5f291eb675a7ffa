import Foundation
import PushStore

/// An audience start as the domain reports it: its id, who it is for, and how far it has come. The API
/// shows it as the contract's `GroupSend` with `kind` start and an `audience`.
struct AudienceStartStatus: Sendable, Hashable {
    var sendID: UUID
    var attributesType: String
    /// How many users were listed; nil: every user with a valid push-to-start token for the type.
    var userCount: Int?
    /// The channel the started activities join.
    var channelID: UUID?
    var state: GroupSendStatus.State
    var acceptedAt: Date
    var finishedAt: Date?
    var progress: AudienceStartProgress

    init(_ start: AudienceStart) {
        let progress = start.progress
        sendID = start.sendID
        attributesType = start.attributesType
        userCount = start.isEveryone ? nil : start.userCount
        channelID = start.channelID
        state =
            if start.finishedAt != nil { .finished } else if start.expanded { .sending } else if progress.targeted == 0 { .accepted } else {
                .expanding
            }
        acceptedAt = start.acceptedAt
        finishedAt = start.finishedAt
        self.progress = progress
    }

    /// Targeted and without an outcome yet (retrying included).
    var pending: Int { max(0, progress.targeted - (progress.sent + progress.failed + progress.skipped)) }
}
