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

    /// A database made before databases recorded their environment: the upgrade keeps its data and
    /// records nothing; the first server that binds it after the upgrade records its own environment.
    @Test(arguments: StoreKind.available)
    func aDatabaseFromBeforeTakesTheEnvironmentOfItsFirstServer(kind: StoreKind) async throws {
        let version = try #require(
            Schema.versions.firstIndex { $0.contains { $0.contains("CREATE TABLE store_environment") } }.map { $0 + 1 })
        try await withDatabase(kind) { harness in
            try await withReopened(harness) { store throws in
                _ = try await store.register(Fixture.registration("old"))
                let sql = try #require(store as? SQLPushStore)
                // Back to the schema before that version (a later migration adds its own tables here).
                try await sql.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("DROP TABLE store_environment")
                    try await session.execute("DELETE FROM schema_migrations WHERE version >= ?", [.int(version)])
                }
            }
            try await withReopened(harness) { upgraded throws in
                #expect(try await upgraded.activity(id: "old") != nil)
                #expect(try await upgraded.environmentBinding() == nil)
                let binding = try await upgraded.bindEnvironment(.sandbox, at: Fixture.start)
                #expect(binding.environment == .sandbox)
                #expect(try await upgraded.bindEnvironment(.production, at: Fixture.start + 1).environment == .sandbox)
            }
        }
    }
}
