import Foundation
import Testing

@testable import PushStore

@Suite("PostgresPushStore")
struct PostgresStoreTests {
    /// Says how to enable the PostgreSQL conformance runs when they are skipped.
    @Test(.enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: StoreKind.postgresSkipMessage)))
    func theTestDatabaseIsReachable() async throws {
        try await withStore(.postgres) { store, _ async throws in
            #expect(try await store.activityCount() == 0)
            #expect(try await store.outboxDepth() == 0)
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: StoreKind.postgresSkipMessage)))
    func twoInstancesMigratingAtOnceAgree() async throws {
        try await withDatabase(.postgres) { harness in
            try await withReopenedConcurrently(harness, count: 2) { stores in
                _ = try await stores[0].register(Fixture.registration("a"))
                #expect(try await stores[1].activity(id: "a")?.activityID == "a")
            }
        }
    }

    @Test
    func malformedURLsNameTheRule() async throws {
        for url in [
            "mysql://u:p@127.0.0.1:5432/db", "postgres://127.0.0.1:5432/db", "postgres://u:p@127.0.0.1:5432",
            "postgres://u:p@127.0.0.1:5432/db?sslmode=sometimes", "postgres://u:p@127.0.0.1:5432/db?timeout=3",
            "not a url",
        ] {
            let error = await caught { try await PostgresPushStore(url: url) }
            #expect(error?.invalidField == "url", "\(url)")
        }
        #expect(await caught { try await PostgresPushStore(url: "postgres://u:p@127.0.0.1/db", schema: "Bad-Name") }?.invalidField == "schema")
    }

    @Test
    func anUnreachableDatabaseIsUnavailable() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused.
        let error = await caught {
            try await PostgresPushStore(
                url: "postgres://u:p@127.0.0.1:1/db?sslmode=disable", connectTimeout: .seconds(2),
                logger: StoreHarness.quietLogger)
        }
        guard case .unavailable(let detail) = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("127.0.0.1:1/db"))
        #expect(!detail.contains("u:p"), "no credentials in messages")
    }
}
