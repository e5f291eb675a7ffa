import Foundation
import Hummingbird

/// `/health`, `/metrics` (Prometheus text) and `/openapi.json`, without authentication.
struct OperationsRoutes: Sendable {
    let services: ServerServices

    func add(to router: Router<BasicRequestContext>) {
        let services = services
        router.get("/health") { _, _ -> Response in
            do {
                let depth = try await services.store.outboxDepth()
                return APIResponse.json(Health(status: "ok", outboxDepth: depth))
            } catch {
                return APIError(.serviceUnavailable, field: nil, rule: "unavailable", "the store does not answer: \(error)").response
            }
        }
        router.get("/metrics") { _, _ -> Response in
            if let depth = try? await services.store.outboxDepth() {
                services.metrics.setOutboxDepth(depth)
            }
            return APIResponse.raw(Data(services.metrics.render().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/openapi.json") { _, _ -> Response in
            APIResponse.raw(Data(OpenAPIDocument.json.utf8), contentType: "application/json; charset=utf-8")
        }
    }
}

/// The body of `/health`.
struct Health: Encodable, Sendable {
    var status: String
    var outboxDepth: Int
}
