import APNsCore
import Foundation
import Testing

@Suite struct RequestHeadersTests {
    @Test func liveActivityHeadersAddTheTopicSuffix() throws {
        let id = UUID(uuidString: "8B1B2D84-4A3B-4D55-9D8E-1B9C0A0B2C3D")!
        let headers = try APNsRequestHeaders.liveActivity(
            bundleID: "com.example.apple-samplecode.Emoji-Rangers", priority: .conservesPower,
            expiration: .at(Date(timeIntervalSince1970: 1_700_000_000)), collapseID: "hero", apnsID: id
        )
        let fields = Dictionary(uniqueKeysWithValues: headers.fields.map { ($0.name, $0.value) })
        #expect(fields["apns-push-type"] == "liveactivity")
        #expect(fields["apns-topic"] == "com.example.apple-samplecode.Emoji-Rangers.push-type.liveactivity")
        #expect(fields["apns-priority"] == "5")
        #expect(fields["apns-expiration"] == "1700000000")
        #expect(fields["apns-collapse-id"] == "hero")
        #expect(fields["apns-id"] == "8b1b2d84-4a3b-4d55-9d8e-1b9c0a0b2c3d")
    }

    @Test func expirationZeroMeansTryOnce() throws {
        let headers = try APNsRequestHeaders.liveActivity(bundleID: "a.b", expiration: .immediately)
        #expect(headers.fields.contains { $0.name == "apns-expiration" && $0.value == "0" })
    }

    @Test func topicWithoutSuffixIsRejected() {
        #expect(throws: APNsRequestHeaders.ValidationError.topicMissingSuffix(topic: "a.b", expectedSuffix: ".push-type.liveactivity")) {
            try APNsRequestHeaders(pushType: .liveactivity, topic: "a.b")
        }
        #expect(throws: APNsRequestHeaders.ValidationError.emptyTopic) {
            try APNsRequestHeaders(pushType: .alert, topic: "")
        }
    }

    @Test func collapseIDLimitIs64Bytes() throws {
        _ = try APNsRequestHeaders.liveActivity(bundleID: "a.b", collapseID: String(repeating: "x", count: 64))
        #expect(throws: APNsRequestHeaders.ValidationError.collapseIDTooLong(bytes: 66)) {
            // 33 two-byte characters: 66 bytes although only 33 characters.
            try APNsRequestHeaders.liveActivity(bundleID: "a.b", collapseID: String(repeating: "é", count: 33))
        }
    }

    @Test func apnsIDParsing() {
        #expect(APNsID.parse("8b1b2d84-4a3b-4d55-9d8e-1b9c0a0b2c3d") != nil)
        #expect(APNsID.parse("8B1B2D84-4A3B-4D55-9D8E-1B9C0A0B2C3D") != nil)
        #expect(APNsID.parse("8B1B2D84-4A3B-4D55-9D8E-1B9C0A0B2C3D", allowUppercase: false) == nil)
        #expect(APNsID.parse("8b1b2d844a3b4d559d8e1b9c0a0b2c3d") == nil)
        #expect(APNsID.parse("not-a-uuid") == nil)
        let generated = APNsID.generate()
        #expect(generated == generated.uppercased())
        #expect(APNsID.parse(generated) != nil)
    }

    @Test func errorBodyParsesThe410Timestamp() throws {
        let body = try #require(APNsErrorBody.parse(Array(#"{"reason":"Unregistered","timestamp":1700000000123}"#.utf8)))
        #expect(body.reason == "Unregistered")
        #expect(body.date == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(APNsErrorBody.parse(Array("not json".utf8)) == nil)
    }
}
