import Hummingbird
import NIOCore

/// The live dashboard on the control port: `GET /` redirects to `GET /dashboard` (the page), whose
/// scripts, style sheet and icon are under `/dashboard/<file>`. The page reads the `/v1` routes and
/// follows `GET /v1/events`.
public enum DashboardRoutes {
    /// The dashboard page's path on the control port (link it as `http://HOST:CONTROL_PORT/dashboard`).
    public static let path = "/dashboard"

    static func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.location] = path
            return Response(status: .found, headers: headers)
        }
        router.get(RouterPath(path)) { _, _ -> Response in
            try serve("index.html")
        }
        router.get(RouterPath(path + "/:file")) { _, context -> Response in
            try serve(try ControlResponse.parameter("file", context))
        }
    }

    static func serve(_ name: String) throws -> Response {
        guard let file = DashboardAssets.file(named: name) else {
            let known = DashboardAssets.catalog.keys.sorted().joined(separator: ", ")
            throw ControlError(.notFound, field: "file", "no dashboard file '\(name)'; the dashboard serves: \(known)")
        }
        var headers = HTTPFields()
        headers[.contentType] = file.asset.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
    }
}
