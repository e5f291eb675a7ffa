import Foundation
import LiveActivity
import PushStore

// The server's side of the response types (Contract/ResponseBodies.swift): each made from its record.

extension ActivityView {
    init(_ record: ActivityRecord) {
        activityID = record.activityID
        pushToken = record.pushToken.shortened
        bundleID = record.bundleID
        attributesType = record.attributesType
        environment = record.environment.rawValue
        userID = record.userID
        groups = record.groups
        frequentPushesEnabled = record.frequentPushesEnabled
        state = record.state.rawValue
        switch record.tokenState {
        case .valid: token = TokenStatus(valid: true, reason: nil, at: nil)
        case .invalid(let reason, let at): token = TokenStatus(valid: false, reason: reason, at: at)
        }
        registeredAt = record.registeredAt
        updatedAt = record.updatedAt
        startedAt = record.startedAt
        endedAt = record.endedAt
        dismissalDate = record.dismissalDate
        lastContentState = record.lastContentState
        lastTimestamp = record.lastTimestamp
    }
}

extension DeliveryView {
    init(_ record: DeliveryRecord) {
        pushID = record.pushID.lowercased
        kind = record.kind.rawValue
        acceptedAt = record.acceptedAt
        sentAt = record.sentAt
        priority = record.priority.rawValue
        requestedPriority = record.requestedPriority.rawValue
        downgradeReason = record.downgradeReason
        apnsID = record.apnsID
        status = record.status
        outcome = record.outcome.rawValue
        reason = record.reason
        attempts = record.attempts
        coalescedInto = record.coalescedInto?.lowercased
        sendID = record.sendID?.lowercased
        apnsUniqueID = record.apnsUniqueID
    }
}

extension PendingView {
    init(_ item: OutboxItem) {
        pushID = item.pushID.lowercased
        kind = item.kind.rawValue
        acceptedAt = item.acceptedAt
        priority = item.priority.rawValue
        downgradeReason = item.downgradeReason
        attempts = item.attempts
        nextAttemptAt = item.nextAttemptAt
        lastError = item.lastError
    }
}

extension PushToStartView {
    init(_ record: PushToStartTokenRecord) {
        id = record.id.lowercased
        userID = record.userID
        deviceID = record.deviceID
        bundleID = record.bundleID
        attributesType = record.attributesType
        environment = record.environment.rawValue
        token = record.token.shortened
        valid = record.tokenState.isValid
        updatedAt = record.updatedAt
        source = record.source?.rawValue
        refreshedAt = record.refreshedAt
    }
}

extension ChannelView {
    init(_ record: ChannelRecord) {
        self.init(
            id: record.id.uuidString.lowercased(), name: record.name, bundleID: record.bundleID, apnsChannelID: record.apnsChannelID,
            storagePolicy: record.storagePolicy, groupID: record.groupID, createdAt: record.createdAt, deletedAt: record.deletedAt)
    }
}
