import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The dashboard's page and assets over a real control-port socket.
@Suite struct DashboardServingTests {
    @Test func rootRedirectsToTheDashboard() async throws {
        try await withControl { harness in
            let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
            let (_, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(harness.port)/")!)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 302)
            #expect(http.value(forHTTPHeaderField: "Location") == "/dashboard")
            session.invalidateAndCancel()
        }
    }

    /// Each file of the dashboard: its path, content type, and a line that shows it is the right file.
    static let files: [(path: String, contentType: String, excerpt: String)] = [
        ("/dashboard", "text/html; charset=utf-8", "<title>LivePush simulator dashboard</title>"),
        ("/dashboard/index.html", "text/html; charset=utf-8", "/dashboard/app.js"),
        ("/dashboard/dashboard.css", "text/css; charset=utf-8", ".health-fill"),
        ("/dashboard/app.js", "text/javascript; charset=utf-8", "/v1/events"),
        ("/dashboard/dom.js", "text/javascript; charset=utf-8", "export function h("),
        ("/dashboard/devices.js", "text/javascript; charset=utf-8", "currentHealthLevel"),
        ("/dashboard/push-log.js", "text/javascript; charset=utf-8", "decode failure"),
        ("/dashboard/stream.js", "text/javascript; charset=utf-8", "new EventSource"),
        ("/dashboard/icon.svg", "image/svg+xml", "<svg"),
    ]

    @Test func pageAndAssetsHaveTheirContentTypes() async throws {
        try await withControl { harness in
            for file in Self.files {
                let answer = try await harness.request("GET", file.path)
                #expect(answer.status == 200, "\(file.path)")
                #expect(answer.contentType == file.contentType, "\(file.path)")
                #expect(answer.text.contains(file.excerpt), "\(file.path)")
            }
        }
    }

    @Test func pageReferencesOnlyServedAssets() async throws {
        try await withControl { harness in
            let page = try await harness.request("GET", "/dashboard")
            var references: [String] = []
            for source in [page.text] + (try await scripts(harness)) {
                let pattern = try Regex(#"["'](?:/dashboard/|\./)([a-z\-]+\.(?:js|css|svg))["']"#)
                references += source.matches(of: pattern).map { String($0.output[1].substring ?? "") }
            }
            #expect(Set(references).isSuperset(of: ["app.js", "dashboard.css", "icon.svg", "dom.js", "devices.js", "push-log.js", "stream.js"]))
            for name in Set(references) {
                let answer = try await harness.request("GET", "/dashboard/\(name)")
                #expect(answer.status == 200, "\(name) is referenced but not served")
            }
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "the page must not load anything from outside")
        }
    }

    @Test func unknownFileIsA404NamingTheServedFiles() async throws {
        try await withControl { harness in
            for path in ["/dashboard/secret.txt", "/dashboard/..%2FPackage.swift"] {
                let answer = try await harness.request("GET", path)
                #expect(answer.status == 404)
                #expect(answer.json?["error"]?["field"] == "file")
                #expect(answer.json?["error"]?["message"]?.stringValue?.contains("app.js") == true)
            }
        }
    }

    private func scripts(_ harness: ControlHarness) async throws -> [String] {
        var texts: [String] = []
        for name in ["app.js", "devices.js", "push-log.js", "stream.js"] {
            texts.append(try await harness.request("GET", "/dashboard/\(name)").text)
        }
        return texts
    }
}

/// Lets a test see a redirect instead of following it.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
