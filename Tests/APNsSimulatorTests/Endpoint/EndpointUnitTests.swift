import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

@Suite struct EndpointUnitTests {
    @Test func errorBodyJSON() {
        #expect(ErrorBodyJSON.encode(reason: "BadTopic", timestamp: nil) == #"{"reason":"BadTopic"}"#)
        let date = Date(timeIntervalSince1970: 1_700_000_000.1234)
        #expect(ErrorBodyJSON.encode(reason: "Unregistered", timestamp: date) == #"{"reason":"Unregistered","timestamp":1700000000123}"#)
        #expect(ErrorBodyJSON.encode(reason: "a\"b\\c\n", timestamp: nil) == #"{"reason":"a\"b\\c\u000a"}"#)
    }

    @Test func environmentFromAuthority() async {
        var configuration = EndpointConfiguration()
        configuration.environment = .sandbox
        let context = EndpointContext(
            configuration: configuration, keys: TrustedKeys(), faults: FaultInjector(seed: 1),
            world: DeviceWorld(), logger: .init(label: "test"))
        #expect(context.environment(authority: "api.push.apple.com") == .production)
        #expect(context.environment(authority: "api.push.apple.com:443") == .production)
        #expect(context.environment(authority: "API.PUSH.APPLE.COM:2197") == .production)
        #expect(context.environment(authority: "api-broadcast.push.apple.com") == .production)
        #expect(context.environment(authority: "api.sandbox.push.apple.com:443") == .sandbox)
        #expect(context.environment(authority: "localhost:2197") == .sandbox)
        #expect(context.environment(authority: "[::1]:2197") == .sandbox)
        #expect(context.environment(authority: nil) == .sandbox)
    }

    @Test func bearerParsing() throws {
        #expect(try ConnectionAuthentication.bearerToken("bearer abc.def.ghi", caseInsensitive: false) == "abc.def.ghi")
        #expect(try ConnectionAuthentication.bearerToken("BEARER abc", caseInsensitive: true) == "abc")
        #expect(throws: Rejection(.invalidProviderToken)) { try ConnectionAuthentication.bearerToken("BEARER abc", caseInsensitive: false) }
        #expect(throws: Rejection(.missingProviderToken)) { try ConnectionAuthentication.bearerToken("bearer", caseInsensitive: false) }
        #expect(throws: Rejection(.missingProviderToken)) { try ConnectionAuthentication.bearerToken("bearer    ", caseInsensitive: false) }
        #expect(throws: Rejection(.invalidProviderToken)) { try ConnectionAuthentication.bearerToken("token abc", caseInsensitive: true) }
    }

    @Test func pathToken() throws {
        #expect(try PushRequestChecks.token(inPath: "/3/device/abcd") == "abcd")
        #expect(throws: Rejection(.missingDeviceToken)) { try PushRequestChecks.token(inPath: "/3/device/") }
        #expect(throws: Rejection(.missingDeviceToken)) { try PushRequestChecks.token(inPath: "/3/device") }
        #expect(throws: Rejection(.badPath)) { try PushRequestChecks.token(inPath: "/3/device/ab?x=1") }
        #expect(throws: Rejection(.badPath)) { try PushRequestChecks.token(inPath: "/") }
        #expect(PushRequestChecks.pathToken("/3/device/ABCD") == "ABCD")
        #expect(PushRequestChecks.pathToken("/4/broadcasts/apps/x") == nil)
    }
}
