import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import PushStore

/// The backend's routes for the ContentState shape of an app's attributes type: read it, or replace it.
struct ShapeRoutes: Sendable {
    let shapes: ContentStateShapeService
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (shapes, clock) = (shapes, clock)
        let get = ContractRoute("getContentStateShape")
        routes.get("apps/:bundleId/attributes-types/:attributesType/content-state-shape") { _, context -> Response in
            let stored = try await shapes.shape(
                bundleID: try get.pathID("bundleId", context), attributesType: try get.pathID("attributesType", context))
            return APIResponse.json(try Schemas.ContentStateShapeRecord(stored))
        }
        let put = ContractRoute("putContentStateShape")
        routes.put("apps/:bundleId/attributes-types/:attributesType/content-state-shape") { request, context -> Response in
            let (bundleID, attributesType) = (try put.pathID("bundleId", context), try put.pathID("attributesType", context))
            let body = try await put.body(Schemas.ContentStateShape.self, request, now: clock.now())
            let stored = try await shapes.put(bundleID: bundleID, attributesType: attributesType, json: body)
            return APIResponse.json(try Schemas.ContentStateShapeRecord(stored))
        }
    }
}

extension Schemas.ContentStateShapeRecord {
    init(_ stored: StoredContentStateShape) throws(APIError) {
        self.init(
            bundleId: stored.bundleID, attributesType: stored.attributesType, shape: stored.shape.json,
            source: try contractValue(stored.source, "source"), revision: stored.revision, updatedAt: stored.updatedAt)
    }
}
