import APNsClient
import APNsCore
import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// Ids in the server's logs are spelled as its answers spell them, in lower case, so that a log line is
/// found by the id an API client holds.
@Suite struct LogIDCaseTests {
    @Test func aSendIDAndAPushIDAreLoggedAsTheAPIAnswersThem() async throws {
        let capture = LogSecrecyTests.Capture()
        let sender = FakeSender()
        sender.enqueue([.success(APNsResponse(status: 503, reason: .serviceUnavailable))])
        try await withServer(ServerOptions(sender: sender, logger: capture.logger)) { harness in
            let registered = try await harness.http.post(
                "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: IdentityTests.hex(0x5A), groups: ["party"]))
            #expect(registered.status == 201)

            let update = try await harness.http.post("/v1/activities/a1/update", key: TestServer.backendKey, #"{"contentState":{"hp":1}}"#)
            let pushID = try #require(update.json?["pushIds"]?.arrayValue?.first?.stringValue, "\(update.text)")
            #expect(pushID == pushID.lowercased())
            // The first attempt meets a 503: the retry's log line names the push.
            await eventually { capture.text.contains { $0.contains("push will be retried") } }
            #expect(capture.text.contains { $0.contains("push will be retried") && $0.contains("pushId=\(pushID)") })

            let send = try await harness.http.post("/v1/groups/party/update", key: TestServer.backendKey, #"{"contentState":{"hp":2}}"#)
            let sendID = try #require(send.json?["sendId"]?.stringValue, "\(send.text)")
            #expect(sendID == sendID.lowercased())
            #expect(capture.text.contains { $0.contains("group send accepted") && $0.contains("sendId=\(sendID)") })

            let upper = [pushID.uppercased(), sendID.uppercased()]
            #expect(!capture.text.contains { line in upper.contains { line.contains($0) } }, "no id in upper case")
        }
    }
}
