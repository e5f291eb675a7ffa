import Foundation
import LivePushServer
import LivePushTesting
import PushStore
import Testing

/// Issue 30, finding 7: the console's test push goes to the activity the operator confirmed. A renewed
/// activity's sends would reach the newest of its chain, so its test push is refused, naming that one.
@Suite struct ConsoleTestPushTargetTests {
    @Test func aTestPushToARenewedActivityNamesTheOneItWouldReach() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            let chain = ["ren-a1", "ren-a2", "ren-a3"]
            #expect(try await RenewsLinkRulesTests.register(harness, chain[0], RenewsLinkRulesTests.plan).status == 201)
            for (old, new) in zip(chain, chain.dropFirst()) {
                #expect(try await harness.store.markRenewalStarting(activityID: old, tokenIDs: [], at: Date()))
                #expect(try await RenewsLinkRulesTests.register(harness, new, #","renews":"\#(old)""#).status == 201)
            }
            let refused = try await harness.http.post(
                "/v1/operator/activities/ren-a1/test-push", key: TestServer.operatorKey, #"{"confirmActivityId":"ren-a1","contentState":{"hp":1}}"#)
            #expect(refused.status == 409 && refused.errorField == "activityId" && refused.errorRule == "renewed", "\(refused.text)")
            #expect(refused.text.contains("ren-a3"), "the answer names the activity a push would reach: \(refused.text)")
            #expect(try await harness.store.pendingItems(activityID: "ren-a3").isEmpty, "nothing was accepted for ren-a3")
            #expect(try await harness.store.deliveries(activityID: "ren-a3", limit: 10).isEmpty, "nothing was sent to ren-a3")

            let newest = try await harness.http.post(
                "/v1/operator/activities/ren-a3/test-push", key: TestServer.operatorKey, #"{"confirmActivityId":"ren-a3","contentState":{"hp":1}}"#)
            #expect(newest.status == 202, "\(newest.text)")
        }
    }
}
