import Foundation
import NIOCore

/// The dashboard's files, shipped as package resources (`Dashboard/Web`) and read once from the module's
/// bundle. Only the files listed here are served; any other name is unknown.
enum DashboardAssets {
    /// One file of the dashboard and how it is served.
    struct Asset: Sendable {
        var name: String
        var contentType: String
    }

    /// Every file the dashboard serves, by name.
    static let catalog: [String: Asset] = Dictionary(
        uniqueKeysWithValues: [
            Asset(name: "index.html", contentType: "text/html; charset=utf-8"),
            Asset(name: "dashboard.css", contentType: "text/css; charset=utf-8"),
            Asset(name: "app.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "dom.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "devices.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "push-log.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "stream.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "channels.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "clock.js", contentType: "text/javascript; charset=utf-8"),
            Asset(name: "icon.svg", contentType: "image/svg+xml"),
        ].map { ($0.name, $0) })

    /// The bytes of every catalogued file, read on first use.
    static let contents: [String: ByteBuffer] = {
        guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil) else { return [:] }
        var files: [String: ByteBuffer] = [:]
        for name in catalog.keys {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) {
                files[name] = ByteBuffer(bytes: data)
            }
        }
        return files
    }()

    /// The file and its content type, or nil when the name is not a dashboard file.
    static func file(named name: String) -> (asset: Asset, body: ByteBuffer)? {
        guard let asset = catalog[name], let body = contents[name] else { return nil }
        return (asset, body)
    }
}
