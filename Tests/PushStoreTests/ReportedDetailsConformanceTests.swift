import APNsCore
import Foundation
import Testing

@testable import PushStore

/// Schema 9: where the app read each push-to-start token and when it last reported it, and the
/// `apns-unique-id` kept in the delivery history; also on a database upgraded from schema 8.
@Suite("PushStore conformance: push-to-start token source, apns-unique-id")
struct ReportedDetailsConformanceTests {
    static func pushToStart(token: DeviceToken, at: Date, source: PushToStartTokenSource?) -> PushToStartRegistration {
        PushToStartRegistration(
            userID: "u1", deviceID: "phone", bundleID: "com.example.app", attributesType: "MatchAttributes", environment: .sandbox,
            token: token, at: at, source: source)
    }

    /// The latest report's source wins, and each report (even of the same token) moves the refresh time.
    @Test(arguments: StoreKind.available)
    func theLatestReportSetsSourceAndRefreshTime(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            let first = try await store.upsertPushToStartToken(Self.pushToStart(token: token, at: Fixture.start, source: .stream))
            #expect(first.source == .stream && first.refreshedAt == Fixture.start)

            let again = try await store.upsertPushToStartToken(Self.pushToStart(token: token, at: Fixture.start + 60, source: .property))
            #expect(again.id == first.id)
            #expect(again.source == .property && again.refreshedAt == Fixture.start + 60)
            #expect(try await store.pushToStartToken(id: first.id) == again)
            #expect(try await store.pushToStartTokens(forUser: "u1", attributesType: "MatchAttributes") == [again])

            // Invalidation changes updatedAt, not when the app last reported the token.
            let invalid = try await store.markPushToStartTokenInvalid(token: token, reason: "Unregistered", at: Fixture.start + 90)
            #expect(invalid.first?.refreshedAt == Fixture.start + 60 && invalid.first?.source == .property)

            let unsaid = try await store.upsertPushToStartToken(Self.pushToStart(token: token, at: Fixture.start + 120, source: nil))
            #expect(unsaid.source == nil, "a report that does not say where the token came from leaves no stale source")
            #expect(unsaid.refreshedAt == Fixture.start + 120)
        }
    }

    @Test(arguments: StoreKind.available)
    func theUniqueIDIsKeptInTheHistory(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let withID = Fixture.update("a", score: 1, importance: .timeSensitive, at: Fixture.start)
            let withoutID = Fixture.update("a", score: 2, importance: .timeSensitive, at: Fixture.start + 1)
            _ = try await store.enqueue([withID, withoutID])
            _ = try await store.claim(owner: "w", limit: 10, now: Fixture.start + 2, lease: 30)
            let uniqueID = UUID().uuidString.lowercased()
            let report = try await store.complete(
                owner: "w",
                results: [
                    DeliveryResult(
                        pushID: withID.pushID, outcome: .accepted, sentAt: Fixture.start + 2, status: 200, attempts: 1, apnsUniqueID: uniqueID),
                    DeliveryResult(pushID: withoutID.pushID, outcome: .accepted, sentAt: Fixture.start + 2, status: 200, attempts: 1),
                ], at: Fixture.start + 3)
            #expect(report.records.map(\.apnsUniqueID) == [uniqueID, nil])
            let history = try await store.deliveries(activityID: "a", limit: 10)
            #expect(history.map(\.pushID) == [withoutID.pushID, withID.pushID])
            #expect(history.map(\.apnsUniqueID) == [nil, uniqueID])
        }
    }

    @Test(arguments: StoreKind.available)
    func aMalformedUniqueIDNamesItsField(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let item = Fixture.update("a", importance: .timeSensitive, at: Fixture.start)
            _ = try await store.enqueue([item])
            _ = try await store.claim(owner: "w", limit: 10, now: Fixture.start + 1, lease: 30)
            let refused = await caught {
                try await store.complete(
                    owner: "w", results: [DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1, apnsUniqueID: "")],
                    at: Fixture.start + 2)
            }
            #expect(refused?.invalidField == "results[0].apnsUniqueId")
        }
    }

    /// A row from before schema 9 (its new columns null, as the migration leaves them) reads back with no
    /// source, refresh time or unique id; the app's next report fills them. The upgrade itself is
    /// `SQLiteStoreTests.aVersionOneDatabaseIsMigrated`; a new database runs the same statements.
    @Test(arguments: StoreKind.available)
    func rowsFromBeforeSchemaNineReadWithoutThem(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let token = Fixture.token()
            let stored = try await store.upsertPushToStartToken(Self.pushToStart(token: token, at: Fixture.start, source: .stream))
            let item = Fixture.update("a", importance: .timeSensitive, at: Fixture.start)
            _ = try await store.enqueue([item])
            _ = try await store.claim(owner: "w", limit: 1, now: Fixture.start, lease: 30)
            try await store.complete(
                DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1, apnsUniqueID: "e3b0c442-98fc-1c14-9afb-f4c8996fb924"),
                owner: "w", at: Fixture.start)
            let sql = try #require(store as? SQLPushStore)
            try await sql.backend.transaction { session throws(PushStoreError) in
                try await session.execute("UPDATE push_to_start_tokens SET source = NULL, refreshed_at = NULL")
                try await session.execute("UPDATE deliveries SET apns_unique_id = NULL")
            }

            let old = try #require(try await store.pushToStartToken(id: stored.id))
            #expect(old.token == token && old.source == nil && old.refreshedAt == nil)
            #expect(try await store.deliveries(activityID: "a", limit: 10).map(\.apnsUniqueID) == [nil])
            let renewed = try await store.upsertPushToStartToken(Self.pushToStart(token: token, at: Fixture.start + 5, source: .property))
            #expect(renewed.id == stored.id && renewed.source == .property && renewed.refreshedAt == Fixture.start + 5)
        }
    }

    /// The database refuses a source other than the two (a second line of defence behind the types).
    @Test(arguments: StoreKind.available)
    func theDatabaseRefusesAnUnknownSource(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.upsertPushToStartToken(Self.pushToStart(token: Fixture.token(), at: Fixture.start, source: .stream))
            let sql = try #require(store as? SQLPushStore)
            let refused = await caught {
                try await sql.backend.transaction { session throws(PushStoreError) in
                    try await session.execute("UPDATE push_to_start_tokens SET source = 'guess'")
                }
            }
            #expect(refused != nil)
        }
    }
}
