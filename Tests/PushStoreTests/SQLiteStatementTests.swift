import Foundation
import LivePushTesting
import Testing

@testable import PushStore

/// SQLite's statements, prepared once per connection and reused (``SQLiteHandle``, ``SQLiteStatementCache``).
@Suite("SQLite: statements prepared once")
struct SQLiteStatementTests {
    /// Runs `body` with a store on a new database file (its transactions grouped when `grouped`) and the
    /// backend under it, closed afterwards.
    private func withStore(
        prefix: String, grouped: Bool = true, _ body: (SQLiteBackend, SQLPushStore) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory(prefix: prefix) { folder in
            let backend = try await SQLiteBackend.open(path: folder.appendingPathComponent("store.sqlite").path, logger: StoreHarness.quietLogger)
            try await withScopedResource {
                try await SQLPushStore(backend: grouped ? GroupCommitBackend(backend) : backend, logger: StoreHarness.quietLogger)
            } stop: { store in
                await store.close()
            } _: { store in
                try await body(backend, store)
            }
        }
    }

    /// Runs `body` with one connection to a new database file, closed afterwards.
    private func withHandle(cacheCapacity: Int = SQLiteStatementCache.capacity, _ body: (SQLiteHandle) async throws -> Void) async throws {
        try await withTemporaryDirectory(prefix: "livepush-sqlite-handle") { folder in
            try await withScopedResource {
                try await SQLiteHandle.open(
                    path: folder.appendingPathComponent("test.sqlite").path, logger: StoreHarness.quietLogger, cacheCapacity: cacheCapacity)
            } stop: { handle in
                await handle.close()
            } _: { handle in
                try await body(handle)
            }
        }
    }

    private func numbers(_ handle: SQLiteHandle, _ sql: String, _ binds: [SQLValue] = []) async throws -> [Int?] {
        try await handle.query(sql, binds).map { row throws(PushStoreError) in try row.optionalInt("v") }
    }

    @Test
    func aStatementIsPreparedOnceAndReused() async throws {
        try await withHandle { handle in
            try await handle.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, label TEXT)")
            let before = try await handle.diagnostics().prepared
            for n in 1...5 {
                try await handle.execute("INSERT INTO t (n, label) VALUES (?, ?)", [.int(n), .text("row \(n)")])
            }
            #expect(try await numbers(handle, "SELECT n AS v FROM t WHERE n >= ? ORDER BY n", [.int(4)]) == [4, 5])
            #expect(try await numbers(handle, "SELECT n AS v FROM t WHERE n >= ? ORDER BY n", [.int(2)]) == [2, 3, 4, 5])
            let after = try await handle.diagnostics()
            #expect(after.prepared == before + 2, "one preparation for the five inserts, one for the two selects")
            #expect(after.busy == 0 && !after.inTransaction)
        }
    }

    /// The store's own operations: a second registration prepares nothing new on the writer.
    @Test
    func theStoreReusesItsStatements() async throws {
        try await withStore(prefix: "livepush-sqlite-store") { backend, store in
            _ = try await store.register(Fixture.registration("first"))
            _ = try await store.activity(id: "first")
            let writer = try await backend.connections.writer.diagnostics()
            let reader = try await backend.connections.reader.diagnostics()
            _ = try await store.register(Fixture.registration("second"))
            #expect(try await store.activity(id: "second")?.activityID == "second")
            #expect(try await backend.connections.writer.diagnostics().prepared == writer.prepared)
            #expect(try await backend.connections.reader.diagnostics().prepared == reader.prepared)
        }
    }

    @Test
    func aStatementThatFailsMidStepLeavesTheCacheUsable() async throws {
        try await withHandle { handle in
            try await handle.execute("CREATE TABLE t (n INTEGER)")
            for n in 1...3 { try await handle.execute("INSERT INTO t (n) VALUES (?)", [.int(n)]) }
            // abs() of the smallest integer overflows: an error at the second row, after the first was stepped.
            let overflowing = "SELECT CASE WHEN n = 2 THEN abs(-9223372036854775807 - 1) ELSE n END AS v FROM t ORDER BY n"
            let failure = await caught { try await numbers(handle, overflowing) }
            guard case .database(let detail) = failure else {
                Issue.record("expected a database error, got \(String(describing: failure))")
                return
            }
            #expect(detail.contains("integer overflow"), "\(detail)")
            let afterFailure = try await handle.diagnostics()
            #expect(afterFailure.busy == 0, "the failed statement was reset")
            try await handle.execute("DELETE FROM t WHERE n = 2")
            #expect(try await numbers(handle, overflowing) == [1, 3], "the same statement runs again")
            #expect(try await handle.diagnostics().prepared == afterFailure.prepared + 1, "only the DELETE was prepared")

            // A conversion that throws at the first row: the statement is reset, and runs whole next time.
            let all = "SELECT n AS v FROM t ORDER BY n"
            let refused = await caught {
                try await handle.query(all, []) { _ throws(PushStoreError) -> Int in throw .database(detail: "not this one") }
            }
            #expect(refused == .database(detail: "not this one"))
            #expect(try await numbers(handle, all) == [1, 3])

            // A unique key refused, then the same insert with a new key.
            try await handle.execute("CREATE UNIQUE INDEX t_n ON t (n)")
            let insert = "INSERT INTO t (n) VALUES (?)"
            #expect(await caught { try await handle.execute(insert, [.int(1)]) }?.isConflict == true)
            try await handle.execute(insert, [.int(7)])
            #expect(try await numbers(handle, all) == [1, 3, 7])
            let end = try await handle.diagnostics()
            #expect(end.busy == 0 && !end.inTransaction)
        }
    }

    /// A statement reused with fewer values binds NULL where the last use had a value.
    @Test
    func bindingsOfAnEarlierUseDoNotLeak() async throws {
        try await withHandle { handle in
            let sql = "SELECT ? AS a, ? AS b"
            let first = try #require(try await handle.query(sql, [.int(1), .text("secret")]).first)
            #expect(try first.int("a") == 1 && first.optionalString("b") == "secret")
            let second = try #require(try await handle.query(sql, [.int(2)]).first)
            #expect(try second.int("a") == 2)
            #expect(try second.value("b") == .null)
            let third = try #require(try await handle.query(sql, []).first)
            #expect(try third.value("a") == .null && third.value("b") == .null)
            #expect(try await handle.diagnostics().prepared == 1)
        }
    }

    @Test
    func valuesRoundTrip() async throws {
        try await withHandle { handle in
            let values: [SQLValue] = [
                .integer(Int64.min), .real(1_750_000_000.125), .text(""), .text("é\u{0}ü"), .blob(Data()), .blob(Data([0, 1, 255])), .null,
            ]
            for value in values {
                let row = try #require(try await handle.query("SELECT ? AS v", [value]).first)
                #expect(try row.value("v") == value)
            }
        }
    }

    @Test
    func theCacheIsBoundedAndKeepsOnlyFixedShapes() async throws {
        try await withHandle(cacheCapacity: 2) { handle in
            for sql in ["SELECT 1 AS v", "SELECT 2 AS v", "SELECT 3 AS v"] { _ = try await numbers(handle, sql) }
            var counts = try await handle.diagnostics()
            #expect(counts.prepared == 3 && counts.kept == 2)
            _ = try await numbers(handle, "SELECT 3 AS v")
            _ = try await numbers(handle, "SELECT 1 AS v")  // the least recently used, evicted
            counts = try await handle.diagnostics()
            #expect(counts.prepared == 4 && counts.kept == 2)
            // An IN list too long for a fixed statement: kept as a row statement, evicting no fixed one.
            let many = Array(repeating: SQLValue.int(1), count: SQLiteStatementCache.maximumBinds + 1)
            let list = "SELECT 1 AS v WHERE 1 IN (" + Array(repeating: "?", count: many.count).joined(separator: ", ") + ")"
            #expect(try await numbers(handle, list, many) == [1])
            #expect(try await numbers(handle, list, many) == [1])
            _ = try await numbers(handle, "SELECT 3 AS v")
            _ = try await numbers(handle, "SELECT 1 AS v")
            counts = try await handle.diagnostics()
            #expect(counts.prepared == 5 && counts.kept == 3 && counts.keptRows == 1)
            // One too large even for a row statement: prepared for the call, not kept.
            let huge = Array(repeating: SQLValue.int(1), count: SQLiteStatementCache.maximumRowsBinds + 1)
            let hugeList = "SELECT 1 AS v WHERE 1 IN (" + Array(repeating: "?", count: huge.count).joined(separator: ", ") + ")"
            #expect(try await numbers(handle, hugeList, huge) == [1])
            #expect(try await numbers(handle, hugeList, huge) == [1])
            counts = try await handle.diagnostics()
            #expect(counts.prepared == 7 && counts.kept == 3)
            #expect(counts.busy == 0)
        }
    }

    /// Row statements have a capacity of their own: beyond it, the least recently used row statement goes.
    @Test
    func rowStatementsAreBoundedApart() async throws {
        try await withTemporaryDirectory(prefix: "livepush-sqlite-handle") { folder in
            try await withScopedResource {
                try await SQLiteHandle.open(
                    path: folder.appendingPathComponent("test.sqlite").path, logger: StoreHarness.quietLogger, rowsCacheCapacity: 2)
            } stop: { handle in
                await handle.close()
            } _: { handle in
                _ = try await numbers(handle, "SELECT 1 AS v")
                func list(_ count: Int) -> String {
                    "SELECT 1 AS v WHERE 1 IN (" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
                }
                for count in [64, 128, 64, 256] {
                    #expect(try await numbers(handle, list(count), Array(repeating: .int(1), count: count)) == [1])
                }
                // 128, the least recently used row statement, went for 256; the fixed one stays.
                var counts = try await handle.diagnostics()
                #expect(counts.prepared == 4 && counts.kept == 3 && counts.keptRows == 2, "\(counts)")
                _ = try await numbers(handle, list(64), Array(repeating: .int(1), count: 64))
                _ = try await numbers(handle, "SELECT 1 AS v")
                #expect(try await handle.diagnostics().prepared == 4)
                _ = try await numbers(handle, list(128), Array(repeating: .int(1), count: 128))
                counts = try await handle.diagnostics()
                #expect(counts.prepared == 5 && counts.kept == 3 && counts.keptRows == 2, "\(counts)")
            }
        }
    }

    /// Row statements are also bounded by the bytes SQLite says they take: one that alone takes more is not
    /// kept, and a new one evicts as many of the least recently used as its bytes need.
    @Test
    func rowStatementsAreBoundedByTheirBytes() async throws {
        func list(_ count: Int) -> String {
            "SELECT 1 AS v WHERE 1 IN (" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
        }
        // What a list of 64 takes prepared, measured on a connection of its own.
        var size = 0
        try await withHandle { handle in
            _ = try await numbers(handle, list(64), Array(repeating: .int(1), count: 64))
            size = try await handle.diagnostics().keptRowsBytes
        }
        #expect(size > 0)
        try await withTemporaryDirectory(prefix: "livepush-sqlite-handle") { folder in
            try await withScopedResource {
                try await SQLiteHandle.open(
                    path: folder.appendingPathComponent("test.sqlite").path, logger: StoreHarness.quietLogger, rowsCacheBytes: size * 2)
            } stop: { handle in
                await handle.close()
            } _: { handle in
                for count in [64, 65, 66] {
                    _ = try await numbers(handle, list(count), Array(repeating: .int(1), count: count))
                }
                var counts = try await handle.diagnostics()
                #expect(
                    counts.prepared == 3 && counts.keptRows == 1, "two lists of 64 fit, 64 and 65 do not: each new one evicted the last: \(counts)")
                #expect(counts.keptRowsBytes <= size * 2)
                // A list of 1,000, more than the room: prepared for the call, not kept; the kept one stays.
                _ = try await numbers(handle, list(1_000), Array(repeating: .int(1), count: 1_000))
                _ = try await numbers(handle, list(66), Array(repeating: .int(1), count: 66))
                counts = try await handle.diagnostics()
                #expect(counts.prepared == 4 && counts.keptRows == 1, "\(counts)")
            }
        }
    }

    /// The batch endpoint's acceptance (500 updates, each to an activity of its own, then 300): its reads,
    /// outbox insert and content-state statements have fixed row counts (``RowShapes``) and stay prepared,
    /// so the next batches (500, then 288: statements of rows counts already run) prepare nothing on the
    /// writer or the reader.
    @Test
    func aSecondBatchPreparesNothing() async throws {
        try await withStore(prefix: "livepush-sqlite-batch") { backend, store in
            let t = Fixture.start
            let ids = (0..<1_588).map { "b\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            func batch(_ ids: ArraySlice<String>) async throws {
                #expect(try await store.activitiesToSend(ids: Array(ids)).count == ids.count)
                let acceptance = Acceptance(
                    at: t, budget: [],
                    stateChanges: ids.enumerated().map { .init(activityID: $1, timestamp: t, contentState: ["score": .number(Double($0))]) }
                ) { _ in ids.enumerated().map { Fixture.update($1, score: $0, at: t) } }
                #expect(try await store.accept(acceptance).enqueued.accepted.count == ids.count)
            }
            try await batch(ids[0..<500])
            try await batch(ids[500..<800])
            let writer = try await backend.connections.writer.diagnostics()
            let reader = try await backend.connections.reader.diagnostics()
            try await batch(ids[800..<1_300])
            try await batch(ids[1_300..<1_588])
            #expect(try await backend.connections.writer.diagnostics().prepared == writer.prepared)
            #expect(try await backend.connections.reader.diagnostics().prepared == reader.prepared)
            #expect(writer.keptRows > 0 && reader.keptRows > 0)
            #expect(try await store.activity(id: "b1587")?.lastContentState == ["score": .number(287)])
            #expect(try await store.outboxDepth() == ids.count)
        }
    }

    /// Tasks cancelled before, during and after their statements: each statement still runs to its end, a
    /// transaction still commits or rolls back, and the connection is left with nothing mid-step and no
    /// transaction open.
    @Test
    func cancelledTasksLeaveNothingHalfOpen() async throws {
        try await withStore(prefix: "livepush-sqlite-cancel", grouped: false) { backend, _ in
            try await backend.transaction { session throws(PushStoreError) in
                try await session.execute("CREATE TABLE t (n INTEGER)")
            }
            let tasks = (0..<40).map { n in
                Task {
                    try await backend.transaction { session throws(PushStoreError) in
                        if n % 4 == 0 { withUnsafeCurrentTask { $0?.cancel() } }
                        try await session.execute("INSERT INTO t (n) VALUES (?)", [.int(n)])
                        if n % 4 == 1 { withUnsafeCurrentTask { $0?.cancel() } }
                        _ = try await session.query("SELECT n FROM t")
                        if n % 4 == 2 { throw PushStoreError.conflict(detail: "rolled back") }
                    }
                }
            }
            for (n, task) in tasks.enumerated() where n % 4 == 3 { task.cancel() }
            var committed = 0
            for task in tasks {
                if (try? await task.value) != nil { committed += 1 }
            }
            #expect(committed == 30, "every transaction but the ten that threw committed")
            let count = try await backend.read { session throws(PushStoreError) in try await session.query("SELECT n FROM t").count }
            #expect(count == 30)
            for handle in [backend.connections.writer, backend.connections.reader] {
                let state = try await handle.diagnostics()
                #expect(state.busy == 0 && !state.inTransaction)
            }
        }
    }
}
