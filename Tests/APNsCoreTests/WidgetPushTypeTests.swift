import APNsCore
import Foundation
import Testing

/// The iOS 26 push types `widgets` and `controls` (docs/apns-protocol.md §3.2).
@Suite struct WidgetPushTypeTests {
    @Test(arguments: [
        (APNsPushType.widgets, "com.example.rangers.push-type.widgets"),
        (.controls, "com.example.rangers.push-type.controls"),
        (.liveactivity, "com.example.rangers.push-type.liveactivity"),
        (.alert, "com.example.rangers"),
    ])
    func headersForAnAppCarryThePushTypesTopic(pushType: APNsPushType, topic: String) throws {
        let headers = try APNsRequestHeaders.forApp(bundleID: "com.example.rangers", pushType: pushType, priority: .conservesPower)
        let fields = Dictionary(uniqueKeysWithValues: headers.fields.map { ($0.name, $0.value) })
        #expect(fields["apns-push-type"] == pushType.rawValue)
        #expect(fields["apns-topic"] == topic)
        #expect(fields["apns-priority"] == "5")
    }

    @Test func aTopicOfAnotherPushTypeIsRefused() {
        #expect(
            throws: APNsRequestHeaders.ValidationError.topicMissingSuffix(
                topic: "com.example.rangers.push-type.controls", expectedSuffix: ".push-type.widgets")
        ) {
            try APNsRequestHeaders(pushType: .widgets, topic: "com.example.rangers.push-type.controls")
        }
        #expect(
            throws: APNsRequestHeaders.ValidationError.topicOfAnotherPushType(
                topic: "com.example.rangers.push-type.widgets", pushType: .alert, topicType: .widgets)
        ) {
            try APNsRequestHeaders(pushType: .alert, topic: "com.example.rangers.push-type.widgets")
        }
    }

    @Test func theSuffixNamesItsPushType() {
        #expect(APNsPushType.suffixed(topic: "a.b.push-type.widgets") == .widgets)
        #expect(APNsPushType.suffixed(topic: "a.b.push-type.controls") == .controls)
        #expect(APNsPushType.suffixed(topic: "a.b.voip-ptt") == .pushtotalk)
        #expect(APNsPushType.suffixed(topic: "a.b") == nil)
        #expect(APNsPushType.suffixed(topic: ".push-type.widgets") == nil, "a suffix alone names no bundle id")
        #expect(APNsPushType.widgets.maximumPayloadSize == 4096)
    }
}
