import Hummingbird
import NIOCore

/// The provider console: `GET /console` (the page) and `GET /console/<file>` (its modules and style
/// sheet), without authentication: the page holds no data. It asks for an operator key, keeps it in
/// the tab's `sessionStorage` and sends it as `Authorization: Bearer` to the `/v1/operator` routes, so
/// the key is never in a URL, a cookie or a log. Every answer carries a strict Content-Security-Policy:
/// scripts and styles only from the server's own files (no inline script or style), requests only to
/// the server, no frames, no form submissions.
struct ConsoleRoutes: Sendable {
    /// The page's path.
    static let path = "/console"

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func add(to router: Router<APIRequestContext>) {
        router.get(RouterPath(Self.path)) { _, _ -> Response in
            try Self.serve("index.html")
        }
        router.get(RouterPath(Self.path + "/:file")) { _, context -> Response in
            try Self.serve(context.parameters.get("file") ?? "")
        }
    }

    static func serve(_ name: String) throws(APIError) -> Response {
        guard let file = ConsoleAssets.file(named: name) else {
            let known = ConsoleAssets.files.keys.sorted().joined(separator: ", ")
            throw APIError.notFound("file", "no console file '\(name)'; the console serves: \(known)")
        }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        for (name, value) in [("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin")] {
            if let name = HTTPFields.Element.Name(name) { headers[name] = value }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
    }
}
