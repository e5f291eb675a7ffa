/// The console's files, compiled into the server (no resource bundle beside the binary): the page, its
/// style sheet and its ES modules, each in `ConsoleAssets+<file>.swift`. Only these names are served.
enum ConsoleAssets {
    struct File: Sendable {
        var contentType: String
        var text: String
    }

    static let files: [String: File] = [
        "index.html": File(contentType: "text/html; charset=utf-8", text: page),
        "console.css": File(contentType: "text/css; charset=utf-8", text: style),
        "dom.js": File(contentType: "text/javascript; charset=utf-8", text: domModule),
        "api.js": File(contentType: "text/javascript; charset=utf-8", text: apiModule),
        "views.js": File(contentType: "text/javascript; charset=utf-8", text: viewsModule),
        "app.js": File(contentType: "text/javascript; charset=utf-8", text: appModule),
    ]

    static func file(named name: String) -> File? { files[name] }
}
