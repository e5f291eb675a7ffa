import Foundation
import Hummingbird
import HummingbirdAuth

/// Limits each principal of one audience's routes (after authentication): a request over the limit is
/// answered 429 with `Retry-After` (whole seconds) and counted; nothing of it is done. Development app
/// keys are not limited (local use).
///
/// Installations also share one budget per app key (`installations`): anyone holding the app key opens
/// as many installations as they like, so a bucket per installation alone would multiply the limit by
/// the installations opened (30 of them once let 900 requests through at once). Every installation
/// request takes from both buckets.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let buckets: TokenBuckets?
    let installations: TokenBuckets?
    let metrics: ServerMetrics
    private let origin = ContinuousClock.now

    /// - Parameter installations: the requests a minute and at once of all the installations one app key
    ///   opened, together; nil or 0 a minute: no shared limit.
    init(perMinute: Int, burst: Int, installations: (perMinute: Int, burst: Int)? = nil, metrics: ServerMetrics) {
        buckets = perMinute > 0 ? TokenBuckets(perMinute: perMinute, burst: burst) : nil
        self.installations = installations.flatMap { $0.perMinute > 0 ? TokenBuckets(perMinute: $0.perMinute, burst: $0.burst) : nil }
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let principal = context.identity, !(principal.scope == .app && principal.credential == .developmentKey)
        else { return try await next(request, context) }
        let elapsed = ContinuousClock.now - origin
        let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if let buckets, let wait = buckets.take(principal.name, now: now) {
            metrics.recordRateLimited(scope: principal.scope.rawValue)
            return Self.refusal(wait: wait, buckets: buckets, who: "this \(principal.scope.rawValue) credential")
        }
        if let installations, let shared = principal.sharedBudget, let wait = installations.take(shared, now: now) {
            buckets?.refund(principal.name)
            metrics.recordRateLimited(scope: "installations")
            return Self.refusal(wait: wait, buckets: installations, who: "the installations opened with this app key, together,")
        }
        return try await next(request, context)
    }

    /// 429 with `Retry-After`, saying which limit and its numbers.
    static func refusal(wait: Double, buckets: TokenBuckets, who: String) -> Response {
        tooManyRequests(wait: wait, rule: "rateLimit") { seconds in
            "\(who) made more than \(Int(buckets.burst)) requests at once or \(Int((buckets.perSecond * 60).rounded())) a minute; retry after \(seconds) s"
        }
    }

    /// 429 `rule` with `Retry-After` in whole seconds (at least 1), and the message for those seconds.
    static func tooManyRequests(wait: Double, rule: String, message: (Int) -> String) -> Response {
        let seconds = max(1, Int(wait.rounded(.up)))
        var response = APIError(.tooManyRequests, field: nil, rule: rule, message(seconds)).response
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}

extension Principal {
    /// The bucket shared by every installation the same app key opened (development keys share one);
    /// nil for every other principal, whose own bucket is its whole budget.
    var sharedBudget: String? {
        guard case .appToken(.installation, _, let keyID) = credential else { return nil }
        return "app:installations:" + (keyID.map { "key:" + $0.lowercased } ?? "development")
    }
}
