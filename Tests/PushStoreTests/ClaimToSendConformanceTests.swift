import APNsCore
import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: a claim with its targets")
struct ClaimToSendConformanceTests {
    /// The claim reads each activity target's current token, bundle id and standing with the pushes: a
    /// rotated token, a dismissed activity, a refused token, a forgotten activity, and a target that is no
    /// activity.
    @Test(arguments: StoreKind.available)
    func theClaimCarriesEachActivityTargetAsItIsNow(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            let (first, rotated, refused) = (Fixture.token(), Fixture.token(), Fixture.token())
            _ = try await store.register(Fixture.registration("rotated", token: first))
            _ = try await store.register(Fixture.registration("dismissed"))
            _ = try await store.register(Fixture.registration("refused", token: refused))
            let items = ["rotated", "dismissed", "refused", "missing"].enumerated().map { index, id in
                Fixture.update(id, importance: .timeSensitive, at: t + Double(index))
            }
            let channel = OutboxItem(
                target: .channel(id: UUID()), kind: .update, payload: Fixture.payload(9), priority: .conservesPower,
                importance: .timeSensitive, acceptedAt: t + 9)
            _ = try await store.enqueue(items + [channel])
            _ = try await store.rotateToken(activityID: "rotated", newToken: rotated, at: t + 10)
            _ = try await store.markDismissed(activityID: "dismissed", at: t + 10)
            _ = try await store.markTokenInvalid(token: refused, reason: "Unregistered", at: t + 10)

            let claimed = try await store.claimToSend(owner: "w1", limit: 10, now: t + 20, lease: 30)
            #expect(claimed.map(\.item.pushID) == (items + [channel]).map(\.pushID), "oldest first")
            var expected = items[0]
            expected.claim = OutboxClaim(owner: "w1", until: t + 50)
            #expect(claimed.first?.item == expected, "the item as `claim` gives it")
            #expect(claimed[0].activity == ClaimedActivity(pushToken: rotated, bundleID: "com.example.app", state: .active))
            #expect(claimed[1].activity?.state == .dismissed && claimed[1].activity?.invalidTokenReason == nil)
            #expect(claimed[2].activity?.state == .active && claimed[2].activity?.invalidTokenReason == "Unregistered")
            #expect(claimed[2].activity?.pushToken == refused)
            #expect(claimed[3].activity == nil, "an activity no longer registered")
            #expect(claimed[4].activity == nil, "a broadcast has no activity")
            #expect(try await store.claimToSend(owner: "w2", limit: 10, now: t + 21, lease: 30).isEmpty, "claimed pushes are held")
        }
    }
}
