import APNsCore
import Foundation
import Hummingbird
import Logging
import PushStore

/// The app-facing routes (app keys): register an activity, rotate its token, store push-to-start tokens,
/// mark an activity ended or dismissed.
struct AppRoutes: Sendable {
    let services: ServerServices

    func add(to router: Router<BasicRequestContext>) {
        let services = services
        router.post("/v1/activities") { request, _ -> Response in
            try await services.authenticator.require(.app, authorization: RouteInputs.authorization(request))
            let body = try await JSONBody.read(request)
            try body.allowOnly(["activityId", "pushToken", "bundleId", "attributesType", "environment", "userId", "groups", "frequentPushesEnabled"])
            let activityId = try body.requiredString("activityId", maxLength: RouteInputs.maximumIdLength)
            let token = try RouteInputs.token(body, "pushToken")
            let registration = ActivityRegistration(
                activityId: activityId, pushToken: token,
                bundleId: try body.requiredString("bundleId", maxLength: 255),
                attributesType: try body.requiredString("attributesType", maxLength: 128),
                environment: try RouteInputs.environment(body, accepted: services.configuration.environment),
                userId: try body.string("userId", maxLength: RouteInputs.maximumIdLength),
                groups: try body.stringArray("groups", maxCount: 32) ?? [],
                frequentPushesEnabled: try body.bool("frequentPushesEnabled") ?? false,
                at: services.clock.now()
            )
            let record = try await services.store.register(registration)
            services.logger.info("activity registered", metadata: ["activityId": "\(activityId)", "token": "\(token.shortened)"])
            return APIResponse.json(ActivityView(record), status: .created)
        }
        router.put("/v1/activities/:activityId/push-token") { request, context -> Response in
            try await services.authenticator.require(.app, authorization: RouteInputs.authorization(request))
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request)
            try body.allowOnly(["pushToken"])
            let token = try RouteInputs.token(body, "pushToken")
            guard try await services.store.activity(id: activityId) != nil else {
                throw APIError.notFound("activityId", "no activity '\(activityId)' is registered; register it with POST /v1/activities")
            }
            let record = try await services.store.rotateToken(activityId: activityId, newToken: token, at: services.clock.now())
            services.logger.info("activity token rotated", metadata: ["activityId": "\(activityId)", "token": "\(token.shortened)"])
            return APIResponse.json(ActivityView(record))
        }
        router.put("/v1/push-to-start-tokens") { request, _ -> Response in
            try await services.authenticator.require(.app, authorization: RouteInputs.authorization(request))
            let body = try await JSONBody.read(request)
            try body.allowOnly(["userId", "deviceId", "bundleId", "attributesType", "environment", "token"])
            let registration = PushToStartRegistration(
                userId: try body.requiredString("userId", maxLength: RouteInputs.maximumIdLength),
                deviceId: try body.requiredString("deviceId", maxLength: RouteInputs.maximumIdLength),
                bundleId: try body.requiredString("bundleId", maxLength: 255),
                attributesType: try body.requiredString("attributesType", maxLength: 128),
                environment: try RouteInputs.environment(body, accepted: services.configuration.environment),
                token: try RouteInputs.token(body, "token"),
                at: services.clock.now()
            )
            let record = try await services.store.upsertPushToStartToken(registration)
            services.logger.info("push-to-start token stored", metadata: ["userId": "\(record.userId)", "token": "\(record.token.shortened)"])
            return APIResponse.json(PushToStartView(record))
        }
        router.post("/v1/activities/:activityId/ended") { request, context -> Response in
            try await services.authenticator.require(.app, authorization: RouteInputs.authorization(request))
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(["dismissalDate"])
            let now = services.clock.now()
            let dismissal = try body.date("dismissalDate", now: now) ?? now.addingTimeInterval(services.configuration.defaultDismissalDelay)
            let change: ActivityStateChange
            do {
                change = try await services.store.markEnded(activityId: activityId, at: now, dismissalDate: dismissal)
            } catch PushStoreError.notFound {
                throw APIError.notFound("activityId", "no activity '\(activityId)' is registered")
            }
            if change.endedNow {
                services.webhook.notify(.activityEnded(activityId, userId: change.activity.userId, cause: .app, at: now))
            }
            return APIResponse.json(ActivityView(change.activity))
        }
        // ActivityKit's `.dismissed`: the person removed it, or the system did after its dismissal date.
        router.post("/v1/activities/:activityId/dismissed") { request, context -> Response in
            try await services.authenticator.require(.app, authorization: RouteInputs.authorization(request))
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly([])
            let now = services.clock.now()
            let change: ActivityStateChange
            do {
                change = try await services.store.markDismissed(activityId: activityId, at: now)
            } catch PushStoreError.notFound {
                throw APIError.notFound("activityId", "no activity '\(activityId)' is registered")
            }
            if change.endedNow {
                services.webhook.notify(.activityEnded(activityId, userId: change.activity.userId, cause: .app, at: now))
            }
            return APIResponse.json(ActivityView(change.activity))
        }
    }
}
