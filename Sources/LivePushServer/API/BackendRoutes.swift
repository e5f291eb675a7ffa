import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import PushStore

/// The backend's routes (behind a backend key): mint a user's app token, update or end an activity or a group, start activities
/// by push-to-start, read an activity with its delivery history. Each reads its input and calls
/// `PushService` or `ActivityService`.
struct BackendRoutes: Sendable {
    let pushes: PushService
    let activities: ActivityService
    let identity: IdentityService
    let idempotent: IdempotentSend
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (pushes, activities, identity, idempotent, clock) = (pushes, activities, identity, idempotent, clock)
        // The backend vouches for its user: the app acts with this token, for this user only.
        routes.post("users/:userId/app-tokens") { request, context -> Response in
            let userId = try RouteInputs.pathId("userId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(AppTokenRequestBody.fields)
            let lifetime = try body.integer("ttlSeconds").map(TimeInterval.init)
            let issued = try await identity.userToken(for: userId, lifetime: lifetime, mintedBy: try context.requireIdentity().keyId)
            return APIResponse.json(AppTokenView(token: issued.token, userId: userId, expiresAt: issued.expiresAt), status: .created)
        }
        // Withdraws the user's (or an installation's) app tokens without signing anyone else out.
        routes.post("users/:userId/sign-out") { request, context -> Response in
            let userId = try RouteInputs.pathId("userId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(EmptyBody.fields)
            let withdrawal = try await identity.signOut(userId)
            return APIResponse.json(SignOutView(userId: userId, pushToStartTokensReleased: withdrawal.releasedPushToStartTokens))
        }
        for kind in [LiveActivityEvent.update, .end] {
            routes.post("activities/:activityId/\(kind.rawValue)") { request, context -> Response in
                let activityId = try RouteInputs.pathId("activityId", context)
                return try await idempotent.respond(request, context, status: .accepted) { body in
                    try await pushes.send(kind, toActivity: activityId, try PushRequestBody.parse(body, kind: kind, now: clock.now()))
                }
            }
            routes.post("groups/:groupId/\(kind.rawValue)") { request, context -> Response in
                let groupId = try RouteInputs.pathId("groupId", context)
                let principal = try context.requireIdentity().name
                return try await idempotent.respond(request, context, status: .accepted) { body in
                    try await pushes.send(kind, toGroup: groupId, try PushRequestBody.parse(body, kind: kind, now: clock.now()), createdBy: principal)
                }
            }
        }
        routes.post("users/:userId/start") { request, context -> Response in
            let userId = try RouteInputs.pathId("userId", context)
            return try await idempotent.respond(request, context, status: .accepted) { body in
                try await pushes.start(user: userId, try PushRequestBody.parse(body, kind: .start, now: clock.now()))
            }
        }
        routes.get("sends/:sendId") { _, context -> Response in
            APIResponse.json(try await pushes.groupSend(id: try RouteInputs.pathId("sendId", context)))
        }
        routes.get("activities/:activityId") { _, context -> Response in
            let detail = try await activities.detail(activityId: try RouteInputs.pathId("activityId", context))
            return APIResponse.json(ActivityDetail(
                activity: ActivityView(detail.activity), deliveries: detail.deliveries.map(DeliveryView.init),
                pending: detail.pending.map(PendingView.init)
            ))
        }
    }
}
