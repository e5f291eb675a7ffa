import Foundation
import PushStore

/// What the console draws and lists from the delivery history: the last hour minute by minute, and a
/// send's progress with the members of a group send that did not get it.
extension ConsoleService {
    /// The minutes of the series: an hour, the last one the current minute.
    static let seriesMinutes = 60
    /// The most failed (and skipped) members a send's detail lists.
    static let sendMemberLimit = 200

    /// The last hour, minute by minute: outcomes and the acceptance-to-outcome latency's p50 and p99.
    func series() async throws(DomainError) -> ConsoleSeries {
        let now = clock.now()
        let currentMinute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60
        let since = Date(timeIntervalSince1970: currentMinute - Double(Self.seriesMinutes - 1) * 60)
        let store = store
        let minutes = try await stored { () async throws(PushStoreError) in
            try await store.deliverySeries(since: since, minutes: Self.seriesMinutes)
        }
        return ConsoleSeries(at: now, minutes: minutes)
    }

    /// A send as the console details it: a group send with its failed members (their history record)
    /// and its skipped ones (why, in the words a single send's refusal uses); an audience start with its
    /// progress (its targets are devices and users, counted, not listed).
    func send(id: String) async throws(DomainError) -> ConsoleSend {
        let store = store
        guard let uuid = UUID(uuidString: id) else { throw .notFound("sendId", "no send '\(id)'") }
        if let start = try await stored({ () async throws(PushStoreError) in try await store.audienceStart(id: uuid) }) {
            return ConsoleSend(send: .audience(AudienceStartStatus(start)), failed: [], skipped: [])
        }
        guard let send = try await stored({ () async throws(PushStoreError) in try await store.groupSend(id: uuid) }),
            let members = try await stored({ () async throws(PushStoreError) in
                try await store.groupSendMembers(sendID: uuid, limit: Self.sendMemberLimit)
            })
        else { throw .notFound("sendId", "no send '\(id)'") }
        return ConsoleSend(
            send: .group(GroupSendStatus(send, broadcastPushIDs: [])),
            failed: members.failed.compactMap { record in record.activityID.map { ($0, record) } },
            skipped: members.skipped.map { activity in
                (activity.activityID, Eligibility.refusalToAccept(activity)?.message ?? "activity '\(activity.activityID)' was not sent")
            })
    }
}

/// The console's series: one entry a minute, oldest first.
struct ConsoleSeries: Sendable {
    var at: Date
    var minutes: [DeliveryMinute]
}

/// A send as the console's Sends view details it (an audience start has no members listed).
struct ConsoleSend: Sendable {
    var send: SendStatus
    var failed: [(activityID: String, record: DeliveryRecord)]
    var skipped: [(activityID: String, reason: String)]
}
