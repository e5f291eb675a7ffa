import APNsCore
import Testing

/// Issue 30, finding 6: bundle ids are checked wherever they reach an APNs path or header, and every
/// path segment built for APNs is percent-encoded.
@Suite struct BundleIDTests {
    @Test func onlyDotSeparatedLabelsAreBundleIDs() {
        for valid in ["com.example.rangers", "a", "com.example.Emoji-Rangers_2", "com.example.rangers.push-type.liveactivity"] {
            #expect(APNsBundleID.isValid(valid), "\(valid)")
        }
        for invalid in ["", ".", "..", "a..b", ".a", "a.", "a/b", "a?x=1", "<x>", "a b", "a%2F", "é.com", String(repeating: "a", count: 256)] {
            #expect(!APNsBundleID.isValid(invalid), "\(invalid)")
        }
    }

    @Test func channelAndBroadcastRequestsRefuseOtherBundleIDs() throws {
        for bundleID in ["com.example/../../3/device/00", "a?x=1", "<x>", ".."] {
            #expect(throws: APNsBroadcastRequest.ValidationError.bundleIDNotATopic(bundleID)) {
                try APNsChannelRequest(bundleID: bundleID, operation: .list)
            }
        }
        #expect(try APNsChannelRequest(bundleID: "com.example.rangers", operation: .list).path == "/1/apps/com.example.rangers/all-channels")
    }

    @Test func headersRefuseATopicThatIsNotABundleID() {
        #expect(throws: APNsRequestHeaders.ValidationError.topicNotABundleID(topic: "a\r\nx: y.push-type.liveactivity")) {
            try APNsRequestHeaders.liveActivity(bundleID: "a\r\nx: y")
        }
    }

    @Test func pathSegmentsArePercentEncoded() {
        #expect(APNsPath.segment("com.example.rangers") == "com.example.rangers")
        #expect(APNsPath.segment("a/../b?x=1#f") == "a%2F..%2Fb%3Fx%3D1%23f")
        #expect(APNsPath.segment("..") == "%2E%2E" && APNsPath.segment(".") == "%2E")
        #expect(APNsPath.segment("é%") == "%C3%A9%25")
    }
}
