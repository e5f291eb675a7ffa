import APNsCore
import Foundation
import Hummingbird
import LiveActivity

/// The backend's routes (behind a backend key): update or end an activity or a group, many activities at once,
/// start activities by push-to-start (for a user, or for an audience), read a group send, read an activity
/// with its delivery history. Each reads its input and calls `PushService`, `ActivityService` or
/// `RenewalService`; the pushes go through `IdempotentSend`. (A user's app tokens: ``UserTokenRoutes``.)
struct BackendRoutes: Sendable {
    let pushes: PushService
    let activities: ActivityService
    let renewals: RenewalService
    let idempotent: IdempotentSend

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (pushes, activities, renewals, idempotent) = (pushes, activities, renewals, idempotent)
        for kind in [LiveActivityEvent.update, .end] {
            let toActivity = PushRequestBody.operation("Activity", kind)
            routes.post("activities/:activityId/\(kind.rawValue)") { request, context -> Response in
                let activityID = try toActivity.pathID("activityId", context)
                return try await idempotent.respond(request, context, toActivity, push: kind, status: .accepted) { body, now in
                    Schemas.Accepted(try await pushes.send(kind, toActivity: activityID, body.content(now: now)))
                }
            }
            let toGroup = PushRequestBody.operation("Group", kind)
            routes.post("groups/:groupId/\(kind.rawValue)") { request, context -> Response in
                let groupID = try toGroup.pathID("groupId", context)
                let principal = try context.requireIdentity().name
                return try await idempotent.respond(request, context, toGroup, push: kind, status: .accepted) { body, now in
                    try Schemas.GroupSend(try await pushes.send(kind, toGroup: groupID, body.content(now: now), createdBy: principal))
                }
            }
        }
        // Many activities, each with its own content-state: one request, one transaction, a result per item.
        routes.post("updates") { request, context -> Response in
            try await idempotent.respond(
                request, context, PushBatchBody.operation, Schemas.UpdateBatch.self, status: .accepted, bodyLimit: PushBatchBody.maximumBytes
            ) { body, now in
                PushBatchBody.answer(try await pushes.send(batch: PushBatchBody.items(body, now: now)))
            }
        }
        let start = PushRequestBody.operation("User", .start)
        routes.post("users/:userId/start") { request, context -> Response in
            let userID = try start.pathID("userId", context)
            return try await idempotent.respond(request, context, start, push: .start, status: .accepted) { body, now in
                Schemas.Accepted(try await pushes.start(user: userID, body.content(now: now)))
            }
        }
        // Many users at once: one stored record, sent in pages; answered with the send and its id.
        routes.post("starts") { request, context -> Response in
            let principal = try context.requireIdentity().name
            return try await idempotent.respond(
                request, context, AudienceStartBody.operation, Schemas.AudienceStart.self, status: .accepted,
                bodyLimit: AudienceStartBody.maximumBytes
            ) { body, now in
                let (audience, content) = try AudienceStartBody.parse(body, now: now)
                return try Schemas.GroupSend(try await pushes.start(audience: audience, content, createdBy: principal))
            }
        }
        let groupSend = ContractRoute("getGroupSend")
        routes.get("sends/:sendId") { _, context -> Response in
            APIResponse.json(try Schemas.GroupSend(try await pushes.send(id: try groupSend.pathID("sendId", context))))
        }
        let activity = ContractRoute("getActivity")
        routes.get("activities/:activityId") { _, context -> Response in
            let detail = try await activities.detail(activityID: try activity.pathID("activityId", context))
            let links = try await renewals.links(of: detail.activity.activityID)
            return APIResponse.json(
                Schemas.ActivityDetail(
                    activity: try Schemas.Activity(detail.activity), deliveries: try detail.deliveries.map(Schemas.Delivery.init),
                    pending: try detail.pending.map(Schemas.Pending.init), renewal: try Schemas.RenewalStatus(links.renewal, renews: links.renews)
                ))
        }
    }
}
