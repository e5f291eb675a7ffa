import APNsClient
import APNsCore
import Testing

@Suite struct EndpointTests {
    @Test func parsesURLs() throws {
        let local = try APNsEndpoint(url: "https://127.0.0.1:2197")
        #expect(local.host == "127.0.0.1" && local.port == 2197 && local.environment == nil)
        let apple = try APNsEndpoint(url: "https://api.sandbox.push.apple.com")
        #expect(apple.port == 443 && apple.environment == .sandbox)
        #expect(APNsEndpoint.apple(.production).authority == "api.push.apple.com")
        #expect(try APNsEndpoint(url: "https://[::1]:2197").authority == "[::1]:2197")
    }

    @Test func rejectsBadURLs() {
        #expect(throws: APNsEndpoint.ParseError.notHTTPS("http://127.0.0.1:2197")) { try APNsEndpoint(url: "http://127.0.0.1:2197") }
        #expect(throws: APNsEndpoint.ParseError.notAURL("localhost")) { try APNsEndpoint(url: "localhost") }
    }
}
