import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// Issue 30, finding 6: a `bundleId` that is not of a bundle id's form is refused before anything goes
/// to APNs: it would become part of APNs' management path (`/1/apps/<bundle id>/channels`) or the
/// `apns-topic` header.
@Suite struct BundleIDTests {
    static let refused = ["com.example/../../3/device/00", "a?x=1", "<x>", "..", ".", "com..example", "com.example.", "%2e%2e", "a b"]

    @Test func aChannelForAnythingButABundleIDIsRefusedBeforeAPNs() async throws {
        let sender = FakeSender()
        try await withServer(ServerOptions(sender: sender)) { harness in
            for bundleID in Self.refused {
                let answer = try await harness.http.post(
                    "/v1/channels", key: TestServer.backendKey,
                    #"{"name":"n","bundleId":"\#(bundleID)","storagePolicy":0}"#)
                #expect(answer.status == 400 && answer.errorField == "bundleId" && answer.errorRule == "invalid", "\(bundleID): \(answer.text)")
            }
            #expect(sender.channelsAtAPNs.isEmpty, "nothing went to APNs")
            let fine = try await harness.http.post(
                "/v1/channels", key: TestServer.backendKey, #"{"name":"n","bundleId":"com.example.Emoji-Rangers_2","storagePolicy":0}"#)
            #expect(fine.status == 201, "\(fine.text)")
        }
    }

    @Test func activitiesAndPushToStartTokensTakeOnlyBundleIDs() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let token = IdentityTests.hex(0x61)
            for bundleID in Self.refused {
                let registration = try await harness.http.post(
                    "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: token, bundleID: bundleID))
                #expect(registration.status == 400 && registration.errorField == "bundleId", "\(bundleID): \(registration.text)")
                let start = try await harness.http.put(
                    "/v1/push-to-start-tokens", key: TestServer.appKey,
                    #"{"userId":"u","deviceId":"d","bundleId":"\#(bundleID)","attributesType":"T","environment":"sandbox","token":"\#(token)"}"#)
                #expect(start.status == 400 && start.errorField == "bundleId", "\(bundleID): \(start.text)")
            }
            #expect(try await harness.store.activity(id: "a1") == nil)
        }
    }
}
