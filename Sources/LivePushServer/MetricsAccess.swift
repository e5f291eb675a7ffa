import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Who may read `GET /metrics`: anyone (no `--metrics-key`; the listener must then be reachable by the
/// monitoring only), or a request with `Authorization: Bearer <metrics key>`. Other routes pass through.
struct MetricsAccess: RouterMiddleware {
    typealias Context = APIRequestContext
    /// The SHA-256 of the key: requests are compared by digest, so the comparison's time says nothing
    /// about how much of a guess was right.
    private let keyDigest: SHA256.Digest?

    init(key: String?) {
        keyDigest = key.map { SHA256.hash(data: Data($0.utf8)) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let keyDigest, request.uri.path == "/metrics" else { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", SHA256.hash(data: Data(parts[1].utf8)) == keyDigest else {
            var response = APIError(
                .unauthorized, field: "Authorization", rule: "metricsKey",
                "GET /metrics needs 'Authorization: Bearer <metrics key>', the key this server was given with --metrics-key"
            ).response
            response.headers[.wwwAuthenticate] = #"Bearer realm="livepush metrics""#
            return response
        }
        return try await next(request, context)
    }
}
