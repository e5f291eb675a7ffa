import Foundation

// The 202 answer of a send request, made from the domain's `SendAcceptance`: ids as lowercase UUIDs
// (each is also the push's `apns-id`), a skipped target under the key that names its kind.
extension AcceptedPushes {
    init(_ acceptance: SendAcceptance) {
        self.init(
            pushIDs: acceptance.pushIDs.map(\.lowercased),
            coalesced: acceptance.coalesced.map { Coalesced(replaced: $0.replaced.lowercased, by: $0.by.lowercased) },
            downgraded: acceptance.downgraded.map { Downgraded(pushID: $0.pushID.lowercased, reason: $0.reason) },
            skipped: acceptance.skipped.map(Skipped.init))
    }
}

extension AcceptedPushes.Skipped {
    init(_ skipped: SendAcceptance.Skipped) {
        switch skipped.target {
        case .activity(let activityID): self.init(activityID: activityID, pushToStartTokenID: nil, reason: skipped.reason)
        case .pushToStartToken(let id): self.init(activityID: nil, pushToStartTokenID: id.lowercased, reason: skipped.reason)
        }
    }
}
