import APNsCore
import Testing

@Suite struct ReasonTests {
    @Test(arguments: APNsReason.known)
    func rawValueRoundTrips(_ reason: APNsReason) {
        #expect(APNsReason(rawValue: reason.rawValue) == reason)
        #expect(!reason.remedy.isEmpty)
    }

    @Test func bothEnvironmentKeySpellingsParse() {
        #expect(APNsReason(rawValue: "BadEnvironmentKeyIdInToken") == .badEnvironmentKeyIDInToken)
        #expect(APNsReason(rawValue: "BadEnvironmentKeyInToken") == .badEnvironmentKeyIDInToken)
    }

    @Test func unknownReasonsAreKeptRaw() {
        let reason = APNsReason(rawValue: "SomethingNew")
        #expect(reason == .other("SomethingNew"))
        #expect(reason.rawValue == "SomethingNew")
        #expect(reason.advice == .fixRequest)
    }

    @Test func statusesFollowApplesTable() {
        #expect(APNsReason.badDeviceToken.status == 400)
        #expect(APNsReason.expiredProviderToken.status == 403)
        #expect(APNsReason.badPath.status == 404)
        #expect(APNsReason.methodNotAllowed.status == 405)
        #expect(APNsReason.unregistered.status == 410)
        #expect(APNsReason.expiredToken.status == 410)
        #expect(APNsReason.payloadTooLarge.status == 413)
        #expect(APNsReason.tooManyRequests.status == 429)
        #expect(APNsReason.tooManyProviderTokenUpdates.status == 429)
        #expect(APNsReason.internalServerError.status == 500)
        #expect(APNsReason.serviceUnavailable.status == 503)
        #expect(APNsReason.shutdown.status == 503)
    }

    /// Apple: never retry BadDeviceToken, DeviceTokenNotForTopic, Forbidden, ExpiredToken, Unregistered, PayloadTooLarge.
    @Test(arguments: [APNsReason.badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge])
    func applesNeverRetryList(_ reason: APNsReason) {
        #expect(reason.advice == .neverRetry)
    }

    @Test func tokenInvalidatingReasons() {
        let invalidating = APNsReason.known.filter(\.invalidatesToken).map(\.rawValue).sorted()
        #expect(invalidating == ["BadDeviceToken", "DeviceTokenNotForTopic", "ExpiredToken", "Unregistered"])
    }
}
