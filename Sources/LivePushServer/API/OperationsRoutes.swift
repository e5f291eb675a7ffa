import APIContract
import Foundation
import Hummingbird

/// `/health` and `/openapi.json`, without authentication, and `/metrics` (Prometheus text) behind
/// `access`, the middleware of that route alone: whatever path the router matches to it is checked.
struct OperationsRoutes: Sendable {
    let operations: OperationsService
    let metrics: ServerMetrics
    let access: MetricsAccess

    func add(to router: Router<APIRequestContext>) {
        let (operations, metrics) = (operations, metrics)
        router.get("/health") { _, _ -> Response in
            do throws(DomainError) {
                let depth = try await operations.outboxDepth()
                return APIResponse.json(Health(status: "ok", outboxDepth: depth))
            } catch {
                return APIError(.serviceUnavailable, field: nil, rule: "unavailable", "the store does not answer: \(error.message)").response
            }
        }
        router.group().add(middleware: access).get("/metrics") { _, _ -> Response in
            if let depth = try? await operations.outboxDepth() {
                metrics.setOutboxDepth(depth)
            }
            return APIResponse.raw(Data(metrics.render().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/openapi.json") { _, _ -> Response in
            APIResponse.raw(Data(APIContract.text.utf8), contentType: "application/json; charset=utf-8")
        }
    }
}

/// The body of `/health`.
struct Health: Encodable, Sendable {
    var status: String
    var outboxDepth: Int
}
