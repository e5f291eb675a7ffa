import Foundation
import PushStore
import Testing

@testable import LivePushServer

/// The rules an audience start owns before anything is stored: who it is for, and the per-device
/// push-to-start budget it shares with renewals.
@Suite struct AudienceStartRulesTests {
    func refusal(_ userIDs: [String]?, everyone: Bool? = nil) -> DomainError? {
        do {
            _ = try AudienceStartAudience.validated(userIDs: userIDs, everyone: everyone)
            return nil
        } catch {
            return error
        }
    }

    @Test func listedUsersOrEveryone() throws {
        #expect(try AudienceStartAudience.validated(userIDs: ["a", "b"], everyone: nil) == .users(["a", "b"]))
        #expect(try AudienceStartAudience.validated(userIDs: nil, everyone: true) == .everyoneWithToken)
        let limit = (0..<AudienceStartAudience.maximumUsers).map { "u\($0)" }
        #expect(try AudienceStartAudience.validated(userIDs: limit, everyone: false) == .users(limit))
    }

    @Test func refusalsNameTheFieldAndRule() {
        let over = (0...AudienceStartAudience.maximumUsers).map { "u\($0)" }
        let cases: [([String]?, Bool?, String, String)] = [
            (over, nil, "userIds", "maxCount"),
            ([], nil, "userIds", "minCount"),
            (nil, nil, "userIds", "required"),
            (nil, false, "userIds", "required"),
            (["a"], true, "everyone", "oneOf"),
            (["a", ""], nil, "userIds[1]", "nonEmpty"),
            (["a", "b", "a"], nil, "userIds[2]", "unique"),
        ]
        for (ids, everyone, subject, rule) in cases {
            let error = refusal(ids, everyone: everyone)
            #expect(error?.kind == .invalid)
            #expect(error?.subject == subject)
            #expect(error?.rule == rule)
        }
        #expect(refusal(over)?.message.contains("\(AudienceStartAudience.maximumUsers + 1)") == true)
    }

    @Test func budgetWindowAndConfiguration() {
        let rule = PushToStartBudgetRule(budget: 2, window: 3600)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(rule.windowStart(at: now) == now - 3600)
        var configuration = ServerConfiguration()
        configuration.pushToStartBudget = 7
        configuration.pushToStartWindow = 60
        #expect(configuration.pushToStartBudgetRule.budget == 7)
        #expect(configuration.pushToStartBudgetRule.window == 60)
    }
}
