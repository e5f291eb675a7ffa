import APNsAuth
import APNsSimulator
import Foundation
import LiveActivity
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 30, finding 9: the control API refuses what a web page could send it: a cross-site request
/// (`Origin` of another site), a non-JSON body (a `text/plain` POST needs no preflight), and a `Host`
/// other than its own addresses (DNS rebinding). A device's webhook stays on loopback unless allowed.
@Suite struct ControlGuardTests {
    static func keyBody() -> String {
        let pem = APNsSigningKey.generate().publicKeyPEM.replacingOccurrences(of: "\n", with: "\\n")
        return #"{"keyId":"EVILKEY001","teamId":"EVILTEAM01","publicKeyPEM":"\#(pem)"}"#
    }

    static func send(_ harness: ControlHarness, _ method: String, _ path: String, body: String?, headers: [String: String]) async throws
        -> (status: Int, text: String)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(harness.port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func crossSiteAndNonJSONRequestsAreRefused() async throws {
        try await withControl { harness in
            let own = "http://127.0.0.1:\(harness.port)"
            let refusals: [(headers: [String: String], status: Int, field: String)] = [
                (["Content-Type": "text/plain", "Origin": "http://evil.example"], 403, "Origin"),
                (["Content-Type": "application/json", "Origin": "http://evil.example"], 403, "Origin"),
                (["Content-Type": "application/json", "Origin": "null"], 403, "Origin"),
                (["Content-Type": "text/plain"], 415, "Content-Type"),
                (["Content-Type": "application/x-www-form-urlencoded", "Origin": own], 415, "Content-Type"),
                (["Content-Type": "application/json", "Host": "evil.example"], 403, "Host"),
                (["Content-Type": "application/json", "Host": "rebound.evil.example:\(harness.port)"], 403, "Host"),
            ]
            for (headers, status, field) in refusals {
                let answer = try await Self.send(harness, "POST", "/v1/keys", body: Self.keyBody(), headers: headers)
                #expect(answer.status == status && answer.text.contains(#""field":"\#(field)""#), "\(headers): \(answer.status) \(answer.text)")
            }
            let read = try await Self.send(harness, "GET", "/v1/keys", body: nil, headers: ["Host": "evil.example"])
            #expect(read.status == 403, "a rebound name reads nothing either: \(read.text)")
            #expect(harness.keys.all().isEmpty, "no key was trusted")

            for headers in [["Content-Type": "application/json"], ["Content-Type": "application/json; charset=utf-8", "Origin": own]] {
                let answer = try await Self.send(harness, "POST", "/v1/keys", body: Self.keyBody(), headers: headers)
                #expect(answer.status == 201, "\(headers): \(answer.text)")
                _ = harness.keys.remove(keyID: "EVILKEY001")
            }
            let localhost = try await Self.send(harness, "GET", "/health", body: nil, headers: ["Host": "localhost:\(harness.port)"])
            #expect(localhost.status == 200, "\(localhost.text)")
        }
    }

    @Test func aDeviceWebhookStaysOnLoopbackUnlessAllowed() async throws {
        func device(_ url: String) -> JSONValue {
            ["name": "phone", "bundleId": "com.example.app", "environment": "sandbox", "webhookURL": .string(url)]
        }
        try await withControl { harness in
            for url in ["http://10.0.0.7/tokens", "http://example.com/tokens", "http://169.254.169.254/latest", "http://[fe80::1]/x"] {
                let refused = try await harness.post("/v1/devices", device(url))
                #expect(refused.status == 400 && refused.json?["error"]?["field"] == "webhookURL", "\(url): \(refused.text)")
            }
            for url in ["http://127.0.0.1:9/tokens", "http://localhost:9/tokens", "http://[::1]:9/tokens"] {
                #expect(try await harness.post("/v1/devices", device(url)).status == 201, "\(url)")
            }
        }
        var rules = DeviceRules()
        rules.allowRemoteWebhooks = true
        try await withControl(rules: rules) { harness in
            let allowed = try await harness.post("/v1/devices", device("http://10.0.0.7/tokens"))
            #expect(allowed.status == 201, "\(allowed.text)")
        }
    }
}
