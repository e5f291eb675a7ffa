import Foundation
import LivePushServer
import LivePushTesting
import Testing

/// The console's page and modules as served: a strict Content-Security-Policy on each, no inline script
/// or style, values written as text only, and the operator key never logged.
@Suite struct ConsolePageTests {
    static let files = ["index.html", "console.css", "dom.js", "api.js", "views.js", "chart.js", "app.js"]
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    @Test func everyFileCarriesTheStrictPolicyAndThePageHasNoInlineScriptOrStyle() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            var bodies: [String: String] = [:]
            for (path, name) in [("/console", "index.html")] + Self.files.map({ ("/console/\($0)", $0) }) {
                let (response, headers) = try await http.request("GET", path, body: nil)
                #expect(response.status == 200, "\(path)")
                #expect(headers["content-security-policy"] == Self.policy, "\(path): \(headers)")
                #expect(headers["x-content-type-options"] == "nosniff" && headers["cache-control"] == "no-store", "\(path)")
                #expect(headers["x-frame-options"] == "DENY" && headers["referrer-policy"] == "no-referrer", "\(path)")
                bodies[name] = response.text
            }
            #expect(!Self.policy.contains("unsafe"))
            let page = try #require(bodies["index.html"])
            // Every script is a file of the server's; no inline script, handler attribute or style.
            let scripts = page.components(separatedBy: "<script").dropFirst()
            #expect(scripts.count == 1 && scripts.allSatisfy { $0.hasPrefix(#" type="module" src="/console/"#) }, "\(scripts)")
            for inline in ["<style", " style=", " onclick=", " onload=", " onerror=", " onsubmit=", "javascript:"] {
                #expect(!page.contains(inline), "index.html contains \(inline)")
            }
            // Values reach the page as text only.
            for name in Self.files where name.hasSuffix(".js") {
                let script = try #require(bodies[name])
                for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute('style"] {
                    #expect(!script.contains(sink), "\(name) uses \(sink)")
                }
            }
            // The key lives in the tab's sessionStorage and travels as the Authorization header only.
            let api = try #require(bodies["api.js"])
            #expect(api.contains("sessionStorage") && !api.contains("localStorage") && !api.contains("document.cookie"))
            #expect(api.contains("Authorization: `Bearer ${key}`") && api.contains("credentials: 'omit'"))

            let unknown = try await http.get("/console/../openapi.json")
            #expect(
                unknown.status == 404 || unknown.status == 200 && unknown.text.hasPrefix("{"),
                "no file outside the catalog is served as the console's")
            let missing = try await http.get("/console/secrets.js")
            #expect(missing.status == 404 && missing.errorField == "file", "\(missing.text)")
        }
    }

    @Test func theOperatorKeyIsNeverLogged() async throws {
        let capture = LogSecrecyTests.Capture()
        try await withServer(ServerOptions(sender: FakeSender(), logger: capture.logger)) { harness in
            let http = harness.http
            let stored = APIKeys.generate(scope: .operator)
            _ = try await harness.store.createAPIKey(name: "console", scope: .operator, sha256Hash: APIKeys.hash(stored), at: Date())
            #expect(
                try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a", token: IdentityTests.hex(0x61)))
                    .status == 201)
            for key in [stored, TestServer.operatorKey, stored + "x"] {
                _ = try await http.get("/v1/operator/overview", key: key)
                _ = try await http.get("/v1/operator/activities?userId=u", key: key)
                _ = try await http.get("/v1/operator/activities/a", key: key)
                _ = try await http.post("/v1/operator/activities/a/test-push", key: key, #"{"confirmActivityId":"a","contentState":{}}"#)
                _ = try await http.get("/v1/activities/a", key: key)
            }
        }
        let lines = capture.text
        #expect(lines.contains { $0.contains("console test push accepted") }, "the test push is logged (without the key)")
        for secret in [TestServer.operatorKey, "lp_operator_", IdentityTests.hex(0x61)] {
            #expect(!lines.contains { $0.contains(secret) }, "a log line contains \(secret)")
        }
    }
}
