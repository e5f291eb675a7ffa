import Foundation
import LiveActivity
import PushStore

// The contract's answers made from the store's records: ids as lowercase UUIDs, tokens shortened (first and
// last 4 hex digits), each state, kind, outcome and priority as the contract's value of the same name.

extension Schemas.Activity {
    init(_ record: ActivityRecord) throws(APIError) {
        let token: TokenPayload
        switch record.tokenState {
        case .valid: token = TokenPayload(valid: true)
        case .invalid(let reason, let at): token = TokenPayload(valid: false, reason: reason, at: at)
        }
        self.init(
            activityId: record.activityID, pushToken: record.pushToken.shortened, bundleId: record.bundleID,
            attributesType: record.attributesType, environment: try contractValue(record.environment, "environment"), userId: record.userID,
            groups: record.groups, frequentPushesEnabled: record.frequentPushesEnabled, state: try contractValue(record.state, "state"),
            token: token, registeredAt: record.registeredAt, updatedAt: record.updatedAt, startedAt: record.startedAt,
            endedAt: record.endedAt, dismissalDate: record.dismissalDate,
            lastContentState: record.lastContentState,
            lastTimestamp: record.lastTimestamp)
    }
}

extension Schemas.Delivery {
    init(_ record: DeliveryRecord) throws(APIError) {
        self.init(
            pushId: record.pushID.lowercased, kind: try contractValue(record.kind, "kind"), acceptedAt: record.acceptedAt,
            sentAt: record.sentAt, priority: try contractValue(record.priority, "priority"),
            requestedPriority: try contractValue(record.requestedPriority, "requestedPriority"), downgradeReason: record.downgradeReason,
            apnsId: record.apnsID, apnsUniqueId: record.apnsUniqueID, status: record.status, outcome: try contractValue(record.outcome, "outcome"),
            reason: record.reason, attempts: record.attempts, coalescedInto: record.coalescedInto?.lowercased, sendId: record.sendID?.lowercased)
    }
}

extension Schemas.Pending {
    init(_ item: OutboxItem) throws(APIError) {
        self.init(
            pushId: item.pushID.lowercased, kind: try contractValue(item.kind, "kind"), acceptedAt: item.acceptedAt,
            priority: try contractValue(item.priority, "priority"), downgradeReason: item.downgradeReason, attempts: item.attempts,
            nextAttemptAt: item.nextAttemptAt, lastError: item.lastError)
    }
}

extension Schemas.PushToStartTokenStored {
    init(_ record: PushToStartTokenRecord) throws(APIError) {
        self.init(
            id: record.id.lowercased, userId: record.userID, deviceId: record.deviceID, bundleId: record.bundleID,
            attributesType: record.attributesType, environment: try contractValue(record.environment, "environment"),
            token: record.token.shortened, valid: record.tokenState.isValid, updatedAt: record.updatedAt,
            source: try record.source.map { (source) throws(APIError) in try contractValue(source, "source") }, refreshedAt: record.refreshedAt)
    }
}

extension Schemas.Channel {
    init(_ record: ChannelRecord) {
        self.init(
            id: record.id.lowercased, name: record.name, bundleId: record.bundleID, apnsChannelId: record.apnsChannelID,
            storagePolicy: record.storagePolicy, groupId: record.groupID, createdAt: record.createdAt, deletedAt: record.deletedAt)
    }
}
