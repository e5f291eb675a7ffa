import Foundation
import Hummingbird
import HummingbirdAuth

/// Limits each principal of one audience's routes (after authentication): a request over the limit is
/// answered 429 with `Retry-After` (whole seconds) and counted; nothing of it is done. Development app
/// keys are not limited (local use).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let buckets: TokenBuckets?
    let metrics: ServerMetrics
    private let origin = ContinuousClock.now

    init(perMinute: Int, burst: Int, metrics: ServerMetrics) {
        buckets = perMinute > 0 ? TokenBuckets(perMinute: perMinute, burst: burst) : nil
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let buckets, let principal = context.identity,
              !(principal.scope == .app && principal.credential == .developmentKey)
        else { return try await next(request, context) }
        let elapsed = ContinuousClock.now - origin
        let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard let wait = buckets.take(principal.name, now: now) else { return try await next(request, context) }
        metrics.recordRateLimited(scope: principal.scope.rawValue)
        let seconds = max(1, Int(wait.rounded(.up)))
        var response = APIError(
            .tooManyRequests, field: nil, rule: "rateLimit",
            "this \(principal.scope.rawValue) credential made more than \(Int(buckets.burst)) requests at once or \(Int((buckets.perSecond * 60).rounded())) a minute; retry after \(seconds) s"
        ).response
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
