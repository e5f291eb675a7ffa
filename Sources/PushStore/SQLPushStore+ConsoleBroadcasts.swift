import Foundation

/// The broadcasts the console lists beside group sends: per live channel (newest first; the channels
/// table holds at most Apple's 10,000 per app), its pushes waiting in the outbox (`outbox_target`) and
/// its newest deliveries (`deliveries_target`), in one read.
extension SQLPushStore {
    package func recentBroadcasts(channels: Int, perChannel: Int) async throws(PushStoreError) -> [ChannelBroadcasts] {
        guard (1...Self.maximumPageSize).contains(channels) else {
            throw .invalidInput(field: "channels", rule: "is \(channels); a page holds 1 to \(Self.maximumPageSize) channels")
        }
        guard (1...50).contains(perChannel) else {
            throw .invalidInput(field: "perChannel", rule: "is \(perChannel); ask for 1 to 50 broadcasts per channel")
        }
        return try await run("recentBroadcasts", readOnly: true) { session throws(PushStoreError) in
            var found = [ChannelBroadcasts]()
            for row in try await session.query(
                "SELECT * FROM channels WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?", [.int(channels)])
            {
                let channel = try RowDecoding.channel(row)
                let id = SQLValue.text(channel.id.lowercased)
                var pending = [OutboxItem]()
                for item in try await session.query(
                    "SELECT * FROM outbox WHERE target_id = ? AND target_kind = 'channel' ORDER BY accepted_at, push_id", [id])
                {
                    pending.append(try RowDecoding.outboxItem(item))
                }
                var deliveries = [DeliveryRecord]()
                for delivery in try await session.query(
                    """
                    SELECT * FROM deliveries WHERE target_id = ? AND target_kind = 'channel'
                    ORDER BY accepted_at DESC, recorded_at DESC, push_id DESC LIMIT ?
                    """, [id, .int(perChannel)])
                {
                    deliveries.append(try RowDecoding.delivery(delivery))
                }
                found.append(ChannelBroadcasts(channel: channel, pending: pending, deliveries: deliveries))
            }
            return found
        }
    }
}
