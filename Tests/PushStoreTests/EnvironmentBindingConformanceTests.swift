import APNsCore
import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: the APNs environment a database serves")
struct EnvironmentBindingConformanceTests {
    @Test(arguments: StoreKind.available)
    func theFirstEnvironmentIsRecordedAndKept(kind: StoreKind) async throws {
        try await withStore(kind) { store, harness in
            #expect(try await store.environmentBinding() == nil)
            let first = try await store.bindEnvironment(.production, at: Fixture.start)
            #expect(first == EnvironmentBinding(environment: .production, recordedAt: Fixture.start))
            // The other environment, later, does not replace it: it learns the recorded one.
            #expect(try await store.bindEnvironment(.sandbox, at: Fixture.start + 60) == first)
            #expect(try await store.bindEnvironment(.production, at: Fixture.start + 120) == first)
            try await withReopened(harness) { reopened throws in
                #expect(try await reopened.environmentBinding() == first)
                #expect(try await reopened.bindEnvironment(.sandbox, at: Fixture.start + 180) == first)
            }
        }
    }

    /// Servers of both environments starting at once on a new database: exactly one environment is
    /// recorded, and every one of them is told the same.
    @Test(arguments: StoreKind.available)
    func concurrentFirstBindingsAgreeOnOneEnvironment(kind: StoreKind) async throws {
        try await withDatabase(kind) { harness in
            try await withReopenedConcurrently(harness, count: 4) { stores in
                let answers = try await withThrowingTaskGroup(of: EnvironmentBinding.self) { group in
                    for (index, store) in stores.enumerated() {
                        let environment: APNsEnvironment = index.isMultiple(of: 2) ? .sandbox : .production
                        group.addTask { try await store.bindEnvironment(environment, at: Fixture.start + Double(index)) }
                    }
                    return try await group.reduce(into: [EnvironmentBinding]()) { $0.append($1) }
                }
                #expect(answers.count == 4)
                #expect(Set(answers).count == 1, "\(answers)")
                #expect(try await stores[0].environmentBinding() == answers.first)
            }
        }
    }

    /// A database made before databases recorded their environment: its upgrade creates the table empty
    /// (SQLiteStoreTests.aVersionOneDatabaseIsMigrated runs the migrations on a first-release database),
    /// so it records nothing until a server binds it; the first one after the upgrade records its own.
    @Test(arguments: StoreKind.available)
    func aDatabaseFromBeforeTakesTheEnvironmentOfItsFirstServer(kind: StoreKind) async throws {
        try await withDatabase(kind) { harness in
            try await withReopened(harness) { store throws in
                _ = try await store.register(Fixture.registration("old"))
                _ = try await store.bindEnvironment(.production, at: Fixture.start)
                let sql = try #require(store as? SQLPushStore)
                // What the upgrade leaves: the table, with no row.
                try await sql.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("DELETE FROM store_environment")
                }
            }
            try await withReopened(harness) { upgraded throws in
                #expect(try await upgraded.activity(id: "old") != nil)
                #expect(try await upgraded.environmentBinding() == nil)
                let binding = try await upgraded.bindEnvironment(.sandbox, at: Fixture.start + 1)
                #expect(binding == EnvironmentBinding(environment: .sandbox, recordedAt: Fixture.start + 1))
                #expect(try await upgraded.bindEnvironment(.production, at: Fixture.start + 2).environment == .sandbox)
            }
        }
    }
}
