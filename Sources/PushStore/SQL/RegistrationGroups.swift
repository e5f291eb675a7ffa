import APNsCore
import Foundation

/// Registrations that arrive together share one transaction (``WriteGroups``): one read of what the store
/// holds of all their tokens and ids, one insert of the new activities, one of their group memberships,
/// one commit; instead of five or six statements and a commit each.
///
/// A group never holds two registrations of one activity, nor two of one token value. Each keeps its own
/// rules and answer: a registration whose token is clean (no other activity holds it, it was never retired,
/// no other user holds it as a push-to-start token) and whose id is new is stored by the group's insert;
/// every other one (an id already stored, a token to refuse) is stored as it would be alone, in the order
/// they arrived, inside a savepoint of its own, so that its refusal leaves the others stored. The first kind
/// touches nothing the second reads or writes (their ids and tokens differ, and a clean token is no stored
/// activity's), so storing those first gives every registration the outcome of storing them one by one.
///
/// Measured: `livepush_store_registration_groups` (registrations per group) and
/// `livepush_store_duration_seconds` with operation `registerGroup`.
typealias RegistrationGroups = WriteGroups<GroupedRegistration>

extension RegistrationGroups {
    convenience init(backend: String) {
        self.init(label: "livepush_store_registration_groups", backend: backend)
    }
}

/// A registration (already validated) as a member of a group (``RegistrationGroups``).
struct GroupedRegistration: GroupedWrite {
    var registration: ActivityRegistration
    var ownership: RegistrationOwnership

    /// Its activity and its token value.
    var groupKeys: Set<String>? { ["activity:" + registration.activityID, SQLPushStore.tokenLockKey(registration.pushToken)] }

    func storeAlone(in store: SQLPushStore) async throws(PushStoreError) -> ActivityRecord {
        try await store.registerAlone(registration, ownership: ownership)
    }

    static func storeTogether(_ writes: [GroupedRegistration], in store: SQLPushStore) async throws(PushStoreError)
        -> [Result<ActivityRecord, PushStoreError>]
    {
        let dialect = store.dialect
        return try await store.run("registerGroup") { session throws(PushStoreError) in
            try await SQLPushStore.register(session, together: writes, dialect: dialect)
        }
    }
}

extension SQLPushStore {
    /// Registrations sharing no activity and no token, as one transaction (see ``RegistrationGroups``):
    /// each one's record or refusal, in order.
    static func register(_ session: any SQLSession, together writes: [GroupedRegistration], dialect: SQLDialect)
        async throws(PushStoreError) -> [Result<ActivityRecord, PushStoreError>]
    {
        let tokens = writes.map { SQLValue.text($0.registration.pushToken.hex) }
        let ids = writes.map { SQLValue.text($0.registration.activityID) }
        // The locks a registration and a push-to-start token take on a token value (PostgreSQL), in one order.
        if let lock = dialect.keysLockStatement {
            let keys = writes.map { tokenLockKey($0.registration.pushToken) }.sorted()
            _ = try await queryIn(session, lock, values: keys.map { .text($0) }, chunk: keys.count)
        }
        // Whatever may refuse a token (another user's push-to-start token, a retired one, another
        // activity's), and the ids already stored: one statement.
        var unclean = Set<String>()
        var storedIDs = Set<String>()
        for row in try await session.query(
            expandingIn(
                """
                SELECT 'token' AS kind, token AS value FROM push_to_start_tokens WHERE token_state = 'valid' AND token IN ({IN})
                UNION ALL SELECT 'token', token FROM retired_tokens WHERE token IN ({IN})
                UNION ALL SELECT 'token', push_token FROM activities WHERE push_token IN ({IN})
                UNION ALL SELECT 'id', activity_id FROM activities WHERE activity_id IN ({IN})
                """, count: writes.count),
            tokens + tokens + tokens + ids)
        {
            if try row.string("kind") == "id" {
                storedIDs.insert(try row.string("value"))
            } else {
                unclean.insert(try row.string("value"))
            }
        }
        var results = [Result<ActivityRecord, PushStoreError>?](repeating: nil, count: writes.count)
        // New activities with clean tokens: one insert (an id another process stored meanwhile is left out).
        let fresh = writes.indices.filter { index in
            let registration = writes[index].registration
            return !unclean.contains(registration.pushToken.hex) && !storedIDs.contains(registration.activityID)
        }
        if !fresh.isEmpty {
            var binds = [SQLValue]()
            binds.reserveCapacity(fresh.count * activityInsertColumns.count)
            for index in fresh { binds += activityRow(writes[index].registration) }
            var stored = [String: ActivityRecord]()
            for row in try await session.query(activityInsert(rows: fresh.count), binds) {
                let record = try RowDecoding.activity(row)
                stored[record.activityID] = record
            }
            var members = [ActivityRegistration]()
            for index in fresh {
                guard let record = stored[writes[index].registration.activityID] else { continue }
                results[index] = .success(record)
                members.append(writes[index].registration)
            }
            try await insertGroupRows(session, members, dialect: dialect)
        }
        // The others as each would be stored alone, in order, each undone alone when refused.
        for index in writes.indices where results[index] == nil {
            try await session.execute("SAVEPOINT registration")
            do throws(PushStoreError) {
                let write = writes[index]
                results[index] = .success(try await register(session, write.registration, ownership: write.ownership, dialect: dialect))
            } catch {
                results[index] = .failure(error)
                try await session.execute("ROLLBACK TO registration")
            }
            try await session.execute("RELEASE registration")
        }
        return results.map { $0 ?? .failure(.database(detail: "a grouped registration was not stored")) }
    }
}
