import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import PushStore

@Suite("PushStore conformance: audience starts")
struct AudienceStartConformanceTests {
    static func start(_ users: [String]?, bundleID: String? = nil, at: Date = Fixture.start) -> AudienceStart {
        AudienceStart(
            attributesType: "MatchAttributes", userIDs: users, bundleID: bundleID,
            template: SendTemplate(
                payload: Data(#"{"aps":{"event":"start"}}"#.utf8), timestamp: at, requestedPriority: .immediate, importance: .timeSensitive,
                expiration: at + 3600),
            acceptedAt: at, createdBy: "backend")
    }

    static func token(
        _ store: any PushStore, user: String, device: String = "phone", type: String = "MatchAttributes", bundleID: String = "com.example.app"
    )
        async throws -> PushToStartTokenRecord
    {
        try await store.upsertPushToStartToken(
            PushToStartRegistration(
                userID: user, deviceID: device, bundleID: bundleID, attributesType: type, environment: .sandbox, token: Fixture.token(),
                at: Fixture.start))
    }

    /// The outcome a worker records for a page: every valid token sent and accepted, a listed user without
    /// one counted `noToken`.
    static func accepted(_ page: AudienceStartPage, at: Date) -> AudienceStartPageOutcome {
        var outcome = AudienceStartPageOutcome()
        let valid = page.tokens.filter { $0.tokenState.isValid }
        outcome.records = valid.map { token in
            let item = OutboxItem(
                target: .pushToStartToken(id: token.id), kind: .start, payload: page.send.template.payload, priority: .immediate,
                importance: .timeSensitive, acceptedAt: page.send.acceptedAt, sendID: page.send.sendID)
            return DeliveryRecord(item, DeliveryResult(pushID: item.pushID, outcome: .accepted, attempts: 1), recordedAt: at)
        }
        outcome.noToken = page.users.count { user in !valid.contains { $0.userID == user } }
        outcome.targeted = valid.count + outcome.noToken
        return outcome
    }

    /// Five listed users in pages of two: each user once, in id order, with their tokens for the type (not
    /// another type's, not an unlisted user's); the start finishes with every count.
    @Test(arguments: StoreKind.available)
    func pagesCoverEveryListedUserOnceAndTheStartFinishes(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for user in ["a", "b", "d", "e", "outsider"] { _ = try await Self.token(store, user: user) }
            _ = try await Self.token(store, user: "a", device: "pad")
            _ = try await Self.token(store, user: "c", type: "OtherAttributes")
            let start = Self.start(["e", "c", "a", "d", "b"])
            try await store.createAudienceStart(start)
            #expect(await caught { try await store.createAudienceStart(start) }?.isConflict == true, "an id is used once")
            let accepted = try #require(try await store.audienceStart(id: start.sendID))
            #expect(accepted.userCount == 5 && !accepted.isEveryone && !accepted.expanded && accepted.progress == AudienceStartProgress())

            var pages: [AudienceStartPage] = []
            while let page = try await store.claimAudiencePage(owner: "w1", pageSize: 2, now: t + 1, lease: 30) { pages.append(page) }
            #expect(pages.flatMap(\.users) == ["a", "b", "c", "d", "e"])
            #expect(pages.map(\.firstID) == ["a", "c", "e"])
            #expect(pages[0].tokens.map(\.deviceID) == ["pad", "phone", "phone"] && pages[1].tokens.map(\.userID) == ["d"])
            #expect(try await store.audienceStart(id: start.sendID)?.finishedAt == nil, "pages are out")

            for page in pages {
                #expect(
                    try await store.completeAudiencePage(page, owner: "w1", outcome: Self.accepted(page, at: t + 2), at: t + 2, journal: nil).held)
            }
            let finished = try #require(try await store.audienceStart(id: start.sendID))
            #expect(finished.progress == AudienceStartProgress(targeted: 6, sent: 5, noToken: 1), "a device each, and c without a token")
            #expect(finished.expanded && finished.finishedAt == t + 2)
            let a = try await store.pushToStartTokens(forUser: "a", attributesType: "MatchAttributes").map(\.id)
            let granted = try await store.reservePushToStarts(
                [PushToStartReservation(tokenID: a[0], pushID: UUID()), PushToStartReservation(tokenID: a[1], pushID: UUID())], budget: 1,
                since: t, at: t + 3)
            #expect(granted.isEmpty, "the budget counts each start sent")
            #expect(try await store.claimAudiencePage(owner: "w1", pageSize: 2, now: t + 3, lease: 30) == nil)
        }
    }

    /// Everyone: the users with a valid token for the type (of the start's app when it names one).
    @Test(arguments: StoreKind.available)
    func everyoneIsEveryUserWithAValidTokenOfTheApp(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            #expect(try await !store.hasValidPushToStartTokens(attributesType: "MatchAttributes", bundleID: nil))
            for user in ["a", "b", "c"] { _ = try await Self.token(store, user: user) }
            _ = try await Self.token(store, user: "other-app", bundleID: "com.example.other")
            let invalid = try await Self.token(store, user: "invalid")
            _ = try await store.markPushToStartTokenInvalid(token: invalid.token, reason: "Unregistered", at: t)
            #expect(try await store.hasValidPushToStartTokens(attributesType: "MatchAttributes", bundleID: "com.example.app"))
            #expect(try await !store.hasValidPushToStartTokens(attributesType: "MatchAttributes", bundleID: "com.example.none"))

            let start = Self.start(nil, bundleID: "com.example.app")
            try await store.createAudienceStart(start)
            #expect(try await store.audienceStart(id: start.sendID)?.isEveryone == true)
            var users: [String] = []
            while let page = try await store.claimAudiencePage(owner: "w1", pageSize: 2, now: t + 1, lease: 30) {
                users += page.users
                #expect(page.tokens.allSatisfy { $0.bundleID == "com.example.app" && $0.tokenState.isValid })
                _ = try await store.completeAudiencePage(page, owner: "w1", outcome: Self.accepted(page, at: t + 2), at: t + 2, journal: nil)
            }
            #expect(users == ["a", "b", "c"])
            #expect(try await store.audienceStart(id: start.sendID)?.progress == AudienceStartProgress(targeted: 3, sent: 3))
        }
    }

    /// A page whose worker died is claimed again when its lease ends (or at once once released); the late
    /// worker's record is refused and writes nothing.
    @Test(arguments: StoreKind.available)
    func anAbandonedPageIsClaimedAgainAndTheLateRecordIsRefused(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let t = Fixture.start
            for user in ["a", "b", "c"] { _ = try await Self.token(store, user: user) }
            let start = Self.start(["a", "b", "c"])
            try await store.createAudienceStart(start)
            let first = try #require(try await store.claimAudiencePage(owner: "dead", pageSize: 2, now: t, lease: 30))
            let second = try #require(try await store.claimAudiencePage(owner: "live", pageSize: 2, now: t + 1, lease: 30))
            #expect(first.users == ["a", "b"] && second.users == ["c"])
            #expect(try await store.claimAudiencePage(owner: "live", pageSize: 2, now: t + 2, lease: 30) == nil, "held pages are not handed out")
            #expect(try await store.renewAudiencePage(second, owner: "live", until: t + 100))

            let again = try #require(try await store.claimAudiencePage(owner: "live", pageSize: 2, now: t + 31, lease: 30), "the lease ended")
            #expect(again.firstID == "a" && again.users == ["a", "b"])
            #expect(try await !store.renewAudiencePage(first, owner: "dead", until: t + 100))
            let late = try await store.completeAudiencePage(first, owner: "dead", outcome: Self.accepted(first, at: t + 32), at: t + 32, journal: nil)
            #expect(!late.held)
            #expect(try await store.audienceStart(id: start.sendID)?.progress == AudienceStartProgress(), "the late record wrote nothing")
            #expect(try await store.releaseAudiencePages(owner: "live") == 2)
            #expect(try await store.claimAudiencePage(owner: "other", pageSize: 2, now: t + 33, lease: 30) != nil)
        }
    }
}
