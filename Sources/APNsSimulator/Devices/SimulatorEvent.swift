import Foundation
import LiveActivity

/// One change in the simulated world, as the event stream publishes it.
public struct SimulatorEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case appRegistered
        case deviceAdded
        case appInstalled
        case tokenIssued
        case tokenRotated
        case tokenExpired
        case activityStarted
        case activityUpdated
        case activityStale
        case activityEnded
        case activityDismissed
        case alertShown
        case decodeFailure
        case pushIgnored
        case pushExchange
        case webhookDelivered
        case webhookFailed
        case channelCreated
        case channelDeleted
        case channelSubscribed
        case broadcastApplied
        case clockChanged
    }

    /// Increasing number, per world.
    public var sequence: Int
    public var kind: Kind
    public var at: Date
    /// The event's data, a JSON object (dates as ISO 8601 strings).
    public var data: JSONValue

    public init(sequence: Int, kind: Kind, at: Date, data: JSONValue) {
        self.sequence = sequence
        self.kind = kind
        self.at = at
        self.data = data
    }
}
