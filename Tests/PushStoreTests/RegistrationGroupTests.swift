import APNsCore
import Foundation
import Testing

@testable import PushStore

/// Registrations that arrive together share a transaction (``RegistrationGroups``); each is answered with
/// what storing it alone, in the order they arrived, would have given it.
@Suite("PushStore conformance: registrations that arrive together")
struct RegistrationGroupTests {
    /// What both stores hold before the group: an activity whose token the group replaces, one of another
    /// owner, one whose first token was retired, one holding a token, and another user's push-to-start token.
    private struct Seeded {
        let replacedToken = Fixture.token()
        let retiredLongAgo = Fixture.token()
        let otherUsersStartToken = Fixture.token()
        let heldToken = Fixture.token()
        let clean = (0..<4).map { _ in Fixture.token() }
        let others = (0..<2).map { _ in Fixture.token() }

        func seed(_ store: any PushStore) async throws {
            _ = try await store.register(Fixture.registration("x", token: replacedToken, groups: ["a", "b"]))
            _ = try await store.register(Fixture.registration("v", token: others[0], user: "owner"))
            _ = try await store.register(Fixture.registration("old", token: retiredLongAgo))
            _ = try await store.register(Fixture.registration("old", token: others[1]))
            _ = try await store.register(Fixture.registration("h", token: heldToken))
            _ = try await store.upsertPushToStartToken(
                TokensBudgetKeysTests.pushToStart(user: "victim", device: "phone", token: otherUsersStartToken))
        }

        /// In this order: x re-registered with a new token (its old one retired), then a new activity with that
        /// old token, a clean new one, one with a token retired long ago, another owner's id, another user's
        /// push-to-start token, a token another activity holds, and a clean one without a user.
        var group: [GroupedRegistration] {
            let t = Fixture.start + 60
            return [
                GroupedRegistration(registration: Fixture.registration("x", token: clean[0], groups: ["b", "c"], at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("y", token: replacedToken, at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("z", token: clean[1], groups: ["a", "a"], at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("w", token: retiredLongAgo, at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("v", token: clean[2], user: "intruder", at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("p", token: otherUsersStartToken, at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("q", token: heldToken, at: t), ownership: .keep),
                GroupedRegistration(registration: Fixture.registration("s", token: clean[3], user: nil, groups: ["a"], at: t), ownership: .replace),
            ]
        }
    }

    /// The same registrations stored as one group and one by one, on two stores seeded alike: the same
    /// answers, the same activities, groups and retired tokens.
    @Test(arguments: StoreKind.available)
    func aGroupAnswersAsOneByOne(kind: StoreKind) async throws {
        let seeded = Seeded()
        let group = seeded.group
        let ids = ["x", "y", "z", "w", "v", "p", "q", "s", "h", "old"]
        typealias State = (answers: [Result<ActivityRecord, PushStoreError>], activities: [ActivityRecord], groups: [[String]], retired: [String?])
        func state(_ store: any PushStore, _ answers: [Result<ActivityRecord, PushStoreError>]) async throws -> State {
            let activities = try await store.activities(ids: ids).sorted { $0.activityID < $1.activityID }
            var groups = [[String]]()
            for name in ["a", "b", "c"] { groups.append(try await store.activities(inGroup: name).map(\.activityID)) }
            var retired = [String?]()
            for token in [seeded.replacedToken, seeded.retiredLongAgo] + seeded.clean {
                retired.append(try await store.retiredToken(token)?.activityID)
            }
            return (answers, activities, groups, retired)
        }
        var grouped: State?
        var oneByOne: State?
        try await withStore(kind) { store, _ in
            try await seeded.seed(store)
            let sql = try #require(store as? SQLPushStore)
            grouped = try await state(store, try await GroupedRegistration.storeTogether(group, in: sql))
        }
        try await withStore(kind) { store, _ in
            try await seeded.seed(store)
            let sql = try #require(store as? SQLPushStore)
            var answers = [Result<ActivityRecord, PushStoreError>]()
            for member in group {
                do {
                    answers.append(.success(try await member.storeAlone(in: sql)))
                } catch let error as PushStoreError {
                    answers.append(.failure(error))
                }
            }
            oneByOne = try await state(store, answers)
        }
        let together = try #require(grouped)
        let alone = try #require(oneByOne)
        #expect(together.answers == alone.answers)
        #expect(together.activities == alone.activities)
        #expect(together.groups == alone.groups)
        #expect(together.retired == alone.retired)
        // What those answers are.
        let outcomes = together.answers.map { (try? $0.get()) != nil }
        #expect(outcomes == [true, false, true, false, false, false, false, true])
        #expect(together.answers[4] == .failure(.taken(kind: .activity, id: "v")))
        #expect(together.answers[5] == .failure(.taken(kind: .pushToStartToken, id: seeded.otherUsersStartToken.shortened)))
        #expect(together.groups == [["s", "z"], ["x"], ["x"]])
        #expect(together.retired[0] == "x", "x's old token is retired")
    }

    /// Registrations sent at once through the store's front door: each gets its own answer, the refused
    /// ones refuse themselves only, and they were stored in groups.
    @Test(arguments: StoreKind.available)
    func concurrentRegistrationsAreAnsweredEachWithItsOwn(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let retired = Fixture.token()
            _ = try await store.register(Fixture.registration("first", token: retired))
            _ = try await store.register(Fixture.registration("first", token: Fixture.token()))
            _ = try await store.register(Fixture.registration("mine", token: Fixture.token(), user: "owner"))
            let ids = (0..<40).map { "c\($0)" }
            let answers = await withTaskGroup(of: (String, Result<ActivityRecord, PushStoreError>).self) { tasks in
                for id in ids {
                    tasks.addTask {
                        let registration: ActivityRegistration
                        switch id {
                        case "c7": registration = Fixture.registration(id, token: retired)
                        case "c21": registration = Fixture.registration("mine", token: Fixture.token(), user: "intruder")
                        default: registration = Fixture.registration(id, groups: ["all"])
                        }
                        do {
                            return (id, .success(try await store.register(registration, ownership: .keep)))
                        } catch let error as PushStoreError {
                            return (id, .failure(error))
                        } catch {
                            return (id, .failure(.database(detail: "\(error)")))
                        }
                    }
                }
                var answers = [String: Result<ActivityRecord, PushStoreError>]()
                for await (id, answer) in tasks { answers[id] = answer }
                return answers
            }
            for id in ids {
                let answer = try #require(answers[id])
                switch id {
                case "c7":
                    #expect((try? answer.get()) == nil, "a retired token is refused")
                    #expect(try await store.activity(id: id) == nil)
                case "c21": #expect(answer == .failure(.taken(kind: .activity, id: "mine")))
                default: #expect(try answer.get().activityID == id)
                }
            }
            #expect(try await store.activities(inGroup: "all").count == ids.count - 2)
            #expect(try await store.activity(id: "mine")?.userID == "owner")
            let sql = try #require(store as? SQLPushStore)
            #expect(sql.registrationGroups.largestGroup > 1, "some registrations shared a transaction")
        }
    }
}
