import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

/// Renewal plans and links on both stores: a plan is due at the activity's start plus `renewBefore`,
/// moves from waiting to starting to renewed (or failed) once each, and a link gives the new activity
/// the old one's user, groups and a plan of its own.
@Suite("PushStore conformance: renewals")
struct RenewalConformanceTests {
    static func plan(_ id: String, renews: String? = nil) -> RenewalPlan {
        RenewalPlan(
            activityID: id, userID: "user-1", attributesType: "MatchAttributes", renewBefore: 7 * 3600 + 45 * 60, attributes: ["team": "Rangers"],
            alert: ["title": "Still on"], renews: renews)
    }

    @Test(arguments: StoreKind.available)
    func aRenewalIsDueStartsAndLinksOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.register(Fixture.registration("old", groups: ["party"]))
            let planned = try await store.planRenewal(Self.plan("old"))
            #expect(planned.state == .waiting && planned.renewAt == t + 7 * 3600 + 45 * 60 && planned.plan.attributes == ["team": "Rangers"])
            #expect(try await store.dueRenewals(by: t + 7 * 3600).isEmpty)
            #expect(try await store.dueRenewals(by: t + 8 * 3600).map(\.activityID) == ["old"])

            let tokenID = UUID()
            #expect(try await store.markRenewalStarting(activityID: "old", tokenIDs: [tokenID], at: t + 8 * 3600))
            #expect(try await !store.markRenewalStarting(activityID: "old", tokenIDs: [], at: t + 8 * 3600), "started once")
            #expect(try await store.startingRenewals().map(\.startTokenIDs) == [[tokenID]])
            #expect(try await store.dueRenewals(by: t + 9 * 3600).isEmpty)

            _ = try await store.register(Fixture.registration("new", user: "user-1", at: t + 8 * 3600))
            let linked = try await store.linkRenewal(activityID: "old", to: "new", at: t + 8 * 3600 + 1, journal: nil)
            #expect(linked?.state == .renewed && linked?.renewedBy == "new")
            #expect(try await store.linkRenewal(activityID: "old", to: "other", at: t + 8 * 3600 + 2, journal: nil) == nil, "linked once")
            #expect(try await store.activity(id: "new")?.groups == ["party"], "the new activity joins the old one's group")
            #expect(try await store.activities(inGroup: "party").map(\.activityID).sorted() == ["new", "old"])
            let next = try #require(try await store.renewal(activityID: "new"))
            #expect(next.state == .waiting && next.plan.renews == "old" && next.renewAt == t + 8 * 3600 + 7 * 3600 + 45 * 60)
            #expect(try await store.renewal(renewedBy: "new")?.activityID == "old")
            #expect(try await !store.markRenewalFailed(activityID: "old", reason: "notRegistered", at: t + 9 * 3600, journal: nil))
        }
    }

    /// Issue 30, finding 3: only a started renewal is linked, a link never closes a cycle, and every
    /// older link moves to the newest activity, so the chain is one link deep whatever its length.
    @Test(arguments: StoreKind.available)
    func linksOnlyStartedRenewalsStayOneDeepAndNeverCycle(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let ids = (0..<5).map { "c\($0)" }
            for id in ids { _ = try await store.register(Fixture.registration(id)) }
            _ = try await store.planRenewal(Self.plan("c0"))
            #expect(try await store.linkRenewal(activityID: "c0", to: "c1", at: t, journal: nil) == nil, "a waiting renewal is not linked")
            for (index, id) in ids.dropLast().enumerated() {
                #expect(try await store.markRenewalStarting(activityID: id, tokenIDs: [], at: t + Double(index)))
                let back = ids[..<index].last ?? id
                #expect(try await store.linkRenewal(activityID: id, to: back, at: t + Double(index), journal: nil) == nil, "no cycle back to \(back)")
                #expect(try await store.linkRenewal(activityID: id, to: ids[index + 1], at: t + Double(index), journal: nil) != nil)
            }
            for id in ids.dropLast() {
                #expect(try await store.renewal(activityID: id)?.renewedBy == "c4", "\(id) names the newest")
            }
            #expect(try await store.renewal(renewedBy: "c4")?.activityID == "c3", "the direct predecessor")
            #expect(try await store.renewal(activityID: "c4")?.plan.renews == "c3")
        }
    }

    @Test(arguments: StoreKind.available)
    func aFailedRenewalKeepsItsFirstReason(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            _ = try await store.register(Fixture.registration("solo"))
            _ = try await store.planRenewal(Self.plan("solo"))
            #expect(try await store.markRenewalFailed(activityID: "solo", reason: "noPushToStartToken", at: t + 8 * 3600, journal: nil))
            #expect(try await !store.markRenewalFailed(activityID: "solo", reason: "notRegistered", at: t + 9 * 3600, journal: nil))
            let failed = try #require(try await store.renewal(activityID: "solo"))
            #expect(failed.state == .failed && failed.reason == "noPushToStartToken" && failed.finishedAt == t + 8 * 3600)
            #expect(try await store.linkRenewal(activityID: "solo", to: "solo", at: t, journal: nil) == nil)
            await #expect(throws: PushStoreError.self) { try await store.planRenewal(Self.plan("missing")) }
        }
    }
}
