import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Who may read `GET /metrics`: anyone (no `--metrics-key`, no `--metrics-operator`; the listener must
/// then be reachable by the monitoring only), or a request with `Authorization: Bearer <credential>`
/// where the credential is the metrics key or, with `--metrics-operator`, an operator key (the console's
/// credential, `livepush keys create --scope operator`).
///
/// It is the middleware of the `/metrics` route itself (``OperationsRoutes``), not a check of the
/// request's path: every spelling the router sends to that route (`/metrics/`, `//metrics`,
/// `/metrics//`) is decided here, and no other route is.
struct MetricsAccess: RouterMiddleware {
    typealias Context = APIRequestContext
    /// The SHA-256 of the key: requests are compared by digest, so the comparison's time says nothing
    /// about how much of a guess was right.
    private let keyDigest: SHA256.Digest?
    /// Checks operator keys; nil: they do not open `/metrics`.
    private let operators: APIKeyChecker?

    init(key: String?, operators: APIKeyChecker? = nil) {
        keyDigest = key.map { SHA256.hash(data: Data($0.utf8)) }
        self.operators = operators
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard keyDigest != nil || operators != nil else { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "bearer" {
            if let keyDigest, SHA256.hash(data: Data(parts[1].utf8)) == keyDigest { return try await next(request, context) }
            if let operators, (try? await operators.principal(authorization: header, requiring: .operator)) != nil {
                return try await next(request, context)
            }
        }
        return refusal()
    }

    /// 401 naming the credentials this server takes for `/metrics`.
    private func refusal() -> Response {
        let (rule, message): (String, String)
        switch (keyDigest != nil, operators != nil) {
        case (true, true):
            rule = "metricsCredential"
            message =
                "GET /metrics needs 'Authorization: Bearer <key>' with the key given with --metrics-key or an operator key "
                + "(`livepush keys create --scope operator`)"
        case (false, _):
            rule = "operatorKey"
            message =
                "GET /metrics needs 'Authorization: Bearer <operator key>' (--metrics-operator); create one with "
                + "`livepush keys create --scope operator`"
        case (true, false):
            rule = "metricsKey"
            message = "GET /metrics needs 'Authorization: Bearer <metrics key>', the key this server was given with --metrics-key"
        }
        var response = APIError(.unauthorized, field: "Authorization", rule: rule, message).response
        response.headers[.wwwAuthenticate] = #"Bearer realm="livepush metrics""#
        return response
    }
}
