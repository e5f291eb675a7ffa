import NIOCore

/// The dashboard's files, kept as files in `Dashboard/Web` and compiled into the binary by SwiftPM
/// (`.embedInCode`, generating `PackageResources`), as the provider console's are: a released `livepush`
/// needs no resource bundle beside it (`Bundle.module` stopped the process on the first request for a
/// dashboard file when the bundle was neither beside the binary nor at its build path). Only the files
/// listed here are served; any other name is unknown.
enum DashboardAssets {
    /// One file of the dashboard and how it is served.
    struct Asset: Sendable {
        var name: String
        var contentType: String
        var bytes: [UInt8]
    }

    /// Every file the dashboard serves, by name.
    static let catalog: [String: Asset] = Dictionary(
        uniqueKeysWithValues: [
            Asset(name: "index.html", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
            Asset(name: "dashboard.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.dashboard_css),
            Asset(name: "app.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
            Asset(name: "dom.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.dom_js),
            Asset(name: "devices.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.devices_js),
            Asset(name: "push-log.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.push_log_js),
            Asset(name: "stream.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.stream_js),
            Asset(name: "channels.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.channels_js),
            Asset(name: "clock.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.clock_js),
            Asset(name: "icon.svg", contentType: "image/svg+xml", bytes: PackageResources.icon_svg),
        ].map { ($0.name, $0) })

    /// The file and its content type, or nil when the name is not a dashboard file.
    static func file(named name: String) -> (asset: Asset, body: ByteBuffer)? {
        guard let asset = catalog[name] else { return nil }
        return (asset, ByteBuffer(bytes: asset.bytes))
    }
}
