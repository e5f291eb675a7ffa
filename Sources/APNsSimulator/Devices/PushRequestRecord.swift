import Foundation
import LiveActivity

/// The part of a history entry every receiver of one push has in common: the request and APNs' answer.
/// A class, and immutable, so that a broadcast's subscribers all point at one instance: a value of these
/// fields is 176 bytes, which 100,000 subscribers would each have held a copy of.
final class PushRequestRecord: Sendable, Hashable, Codable {
    // The JSON names stay as the API and the simulator have always spelled them.
    enum CodingKeys: String, CodingKey {
        case apnsID = "apnsId"
        case receivedAt, token, priority, headers, payload, status, reason
        case channelID = "channelId"
    }

    let apnsID: String
    let receivedAt: Date
    let token: String
    let priority: Int
    let headers: [HeaderField]
    let payload: JSONValue
    let status: Int
    let reason: String?
    let channelID: String?

    init(
        apnsID: String, receivedAt: Date, token: String, priority: Int, headers: [HeaderField], payload: JSONValue, status: Int,
        reason: String?, channelID: String?
    ) {
        self.apnsID = apnsID
        self.receivedAt = receivedAt
        self.token = token
        self.priority = priority
        self.headers = headers
        self.payload = payload
        self.status = status
        self.reason = reason
        self.channelID = channelID
    }

    static func == (lhs: PushRequestRecord, rhs: PushRequestRecord) -> Bool {
        lhs === rhs
            || (lhs.apnsID == rhs.apnsID && lhs.receivedAt == rhs.receivedAt && lhs.token == rhs.token && lhs.priority == rhs.priority
                && lhs.headers == rhs.headers && lhs.payload == rhs.payload && lhs.status == rhs.status && lhs.reason == rhs.reason
                && lhs.channelID == rhs.channelID)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(apnsID)
        hasher.combine(receivedAt)
        hasher.combine(token)
        hasher.combine(status)
    }
}
