import NIOCore

/// The console's files: the page, its style sheet and its ES modules, kept as files in `Console/Web` and
/// compiled into the server by SwiftPM (`.embedInCode`, generating `PackageResources`), so the binary
/// needs no resource bundle beside it (a released `livepush` is one file). Only the files listed here
/// are served; any other name is unknown.
enum ConsoleAssets {
    /// One file of the console and how it is served.
    struct File: Sendable {
        var contentType: String
        var body: ByteBuffer
    }

    /// Every file the console serves, by name.
    static let files: [String: File] = [
        "index.html": File(contentType: "text/html; charset=utf-8", body: ByteBuffer(bytes: PackageResources.index_html)),
        "console.css": File(contentType: "text/css; charset=utf-8", body: ByteBuffer(bytes: PackageResources.console_css)),
        "dom.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.dom_js)),
        "api.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.api_js)),
        "views.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.views_js)),
        "chart.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.chart_js)),
        "app.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.app_js)),
    ]

    static func file(named name: String) -> File? { files[name] }
}
