import Foundation

/// The ``ChannelStore`` operations.
extension SQLPushStore {
    package func createChannel(_ channel: ChannelRecord) async throws(PushStoreError) -> ChannelRecord {
        try Validation.identifier(channel.name, field: "name")
        try Validation.bundleID(channel.bundleID, field: "bundleId")
        try Validation.identifier(channel.apnsChannelID, field: "apnsChannelId", max: 512)
        try Validation.optionalIdentifier(channel.groupID, field: "groupId")
        guard channel.storagePolicy == 0 || channel.storagePolicy == 1 else {
            throw .invalidInput(field: "storagePolicy", rule: "is \(channel.storagePolicy); 0 (no message stored) or 1 (the most recent stored)")
        }
        let dialect = self.dialect
        return try await run("createChannel") { session throws(PushStoreError) in
            if let key = dialect.keyLockStatement {
                try await session.execute(key, [.text("channel:\(channel.bundleID):\(channel.name)")])
            }
            if try await session.first(
                "SELECT id FROM channels WHERE bundle_id = ? AND name = ? AND deleted_at IS NULL",
                [.text(channel.bundleID), .text(channel.name)]) != nil
            {
                throw .conflict(detail: "a channel named '\(channel.name)' exists for \(channel.bundleID)")
            }
            try await session.execute(
                """
                INSERT INTO channels (id, name, bundle_id, apns_channel_id, storage_policy, group_id, created_at, deleted_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .uuid(channel.id), .text(channel.name), .text(channel.bundleID), .text(channel.apnsChannelID),
                    .int(channel.storagePolicy), .text(channel.groupID), .date(channel.createdAt), .date(channel.deletedAt),
                ])
            return channel
        }
    }

    package func channel(id: UUID) async throws(PushStoreError) -> ChannelRecord? {
        try await run("channel", readOnly: true) { session throws(PushStoreError) in
            try await session.first("SELECT * FROM channels WHERE id = ?", [.uuid(id)]).map(RowDecoding.channel)
        }
    }

    package func channel(named name: String, bundleID: String) async throws(PushStoreError) -> ChannelRecord? {
        try await run("channelNamed", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT * FROM channels WHERE bundle_id = ? AND name = ? AND deleted_at IS NULL", [.text(bundleID), .text(name)]
            ).map(RowDecoding.channel)
        }
    }

    package func channels(bundleID: String?) async throws(PushStoreError) -> [ChannelRecord] {
        try await run("channels", readOnly: true) { session throws(PushStoreError) in
            let rows =
                if let bundleID {
                    try await session.query(
                        "SELECT * FROM channels WHERE deleted_at IS NULL AND bundle_id = ? ORDER BY created_at, id", [.text(bundleID)])
                } else {
                    try await session.query("SELECT * FROM channels WHERE deleted_at IS NULL ORDER BY created_at, id")
                }
            var channels = [ChannelRecord]()
            for row in rows { channels.append(try RowDecoding.channel(row)) }
            return channels
        }
    }

    package func channels(linkedToGroup groupID: String) async throws(PushStoreError) -> [ChannelRecord] {
        try await run("channelsOfGroup", readOnly: true) { session throws(PushStoreError) in
            var channels = [ChannelRecord]()
            for row in try await session.query(
                "SELECT * FROM channels WHERE deleted_at IS NULL AND group_id = ? ORDER BY created_at, id", [.text(groupID)])
            {
                channels.append(try RowDecoding.channel(row))
            }
            return channels
        }
    }

    package func channelCount(bundleID: String) async throws(PushStoreError) -> Int {
        try await run("channelCount", readOnly: true) { session throws(PushStoreError) in
            try await session.first(
                "SELECT COUNT(*) AS n FROM channels WHERE deleted_at IS NULL AND bundle_id = ?", [.text(bundleID)])?.int("n") ?? 0
        }
    }

    package func markChannelDeleted(id: UUID, at: Date) async throws(PushStoreError) -> ChannelRecord {
        try await run("markChannelDeleted") { session throws(PushStoreError) in
            let rows = try await session.query(
                "UPDATE channels SET deleted_at = COALESCE(deleted_at, ?) WHERE id = ? RETURNING *", [.date(at), .uuid(id)])
            guard let row = rows.first else { throw .notFound(kind: .channel, id: id.lowercased) }
            return try RowDecoding.channel(row)
        }
    }
}
