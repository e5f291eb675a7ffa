import Foundation
import Hummingbird
import NIOCore

/// Limits the failed requests of each client address (401, 403, and requests without a credential),
/// checked before the credential is looked up: once an address has spent its budget, every API request
/// from it is answered 429 with `Retry-After` until the budget refills, without touching the store. A
/// request is charged when it fails, so clients that authenticate never spend it; with requests in
/// flight at once, at most that many more failures get through.
///
/// Without it a client could try any number of keys (2,000 unknown keys once cost 2,000 store lookups,
/// none refused). IPv6 clients are counted per /64, the block one host is normally given.
struct AddressLimitMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let buckets: TokenBuckets?
    let metrics: ServerMetrics
    private let origin = ContinuousClock.now

    init(perMinute: Int, burst: Int, metrics: ServerMetrics) {
        buckets = perMinute > 0 ? TokenBuckets(perMinute: perMinute, burst: burst) : nil
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let buckets else { return try await next(request, context) }
        let address = Self.key(context.remoteAddress)
        if let wait = buckets.wait(address, now: now()) {
            metrics.recordRateLimited(scope: "address")
            return RateLimitMiddleware.tooManyRequests(wait: wait, rule: "addressLimit") { seconds in
                "this address made more than \(Int(buckets.burst)) failed requests (401 or 403) at once or \(Int((buckets.perSecond * 60).rounded())) a minute; no request from it is looked at for \(seconds) s"
            }
        }
        do {
            let response = try await next(request, context)
            if Self.isFailure(response.status) { _ = buckets.take(address, now: now()) }
            return response
        } catch {
            if Self.isFailure(Self.status(of: error)) { _ = buckets.take(address, now: now()) }
            throw error
        }
    }

    private func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func isFailure(_ status: HTTPResponse.Status?) -> Bool {
        status == .unauthorized || status == .forbidden
    }

    /// The status `APIErrorMiddleware` will answer an error with, when it is a refusal of the credential.
    static func status(of error: any Error) -> HTTPResponse.Status? {
        switch error {
        case let error as APIError: return error.status
        case let error as HTTPError: return error.status
        case let error as DomainError: return error.kind == .forbidden ? .forbidden : nil
        default: return nil
        }
    }

    /// The bucket of a client address: an IPv4 address (also when mapped into IPv6), an IPv6 /64.
    static func key(_ address: SocketAddress?) -> String {
        switch address {
        case .v4?:
            return "ip:" + (address?.ipAddress ?? "")
        case .v6(let v6)?:
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return "ip:" + bytes[12..<16].map(String.init).joined(separator: ".")
            }
            return "ip6:" + bytes.prefix(8).map { String(format: "%02x", $0) }.joined() + "/64"
        case .unixDomainSocket?:
            return "unix"
        case nil:
            return "unknown"
        }
    }
}
