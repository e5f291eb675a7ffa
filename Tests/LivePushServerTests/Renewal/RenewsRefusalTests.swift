import Foundation
import LivePushTesting
import Testing

/// `renews` in a registration names the activity this one takes over from; one it cannot take over is
/// refused with 409 and the reason (found by the fuzz run: it was a 400 for a well-formed request, and a
/// 404 the contract did not list).
@Suite struct RenewsRefusalTests {
    @Test func renewsMustNameAnotherActivityOfTheUser() async throws {
        try await RenewalHarness.run(.sqlite) { world, _ in
            _ = try await world.startFirstActivity()
            let token = String(repeating: "ab", count: 32)
            let refusals: [(renews: String, rule: String)] = [("successor", "self"), ("nobody-has-this", "exists")]
            for (renews, rule) in refusals {
                let answer = try await world.register("successor", token: token, extra: #","renews":"\#(renews)""#)
                #expect(answer.status == 409, "renews \(renews): \(answer.text)")
                #expect(answer.json?["error"]?["field"] == "renews" && answer.json?["error"]?["rule"] == .string(rule), "\(answer.text)")
            }
            // Nothing was registered by the refused requests.
            let missing = try await world.server.http.get("/v1/activities/successor", key: TestServer.backendKey)
            #expect(missing.status == 404)
        }
    }
}
