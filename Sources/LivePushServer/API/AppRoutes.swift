import APNsCore
import Foundation
import Hummingbird
import PushStore

/// The app's routes (behind an app credential): open an installation, register an activity, rotate its
/// token, store push-to-start tokens, report an activity ended or dismissed. Each reads its input and
/// calls `ActivityService` or `IdentityService` as the request's principal (`AppActor`: a user token acts
/// for its user only). `ActivityService` stamps registrations with the time they arrive: the `at` given
/// here is replaced.
struct AppRoutes: Sendable {
    let activities: ActivityService
    let identity: IdentityService
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (activities, identity, clock) = (activities, identity, clock)
        routes.post("installations") { request, context -> Response in
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(InstallationBody.fields)
            let opened = try await identity.openInstallation(as: try context.actor, keyId: try context.requireIdentity().keyId)
            return APIResponse.json(
                InstallationView(installationId: opened.installationId, token: opened.token, expiresAt: opened.expiresAt), status: .created)
        }
        // Before its token expires, an installation renews it with that token.
        routes.post("installations/:installationId/token") { request, context -> Response in
            let installationId = try RouteInputs.pathId("installationId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(EmptyBody.fields)
            let renewed = try await identity.renewInstallation(installationId, as: try context.requireIdentity())
            return APIResponse.json(
                InstallationView(installationId: installationId, token: renewed.token, expiresAt: renewed.expiresAt), status: .created)
        }
        routes.post("activities") { request, context -> Response in
            let body = try await JSONBody.read(request)
            try body.allowOnly(ActivityRegistrationBody.fields)
            let registration = ActivityRegistration(
                activityId: try RouteInputs.requiredId(body, "activityId"),
                pushToken: try RouteInputs.token(body, "pushToken"),
                bundleId: try RouteInputs.requiredId(body, "bundleId", maxLength: 255, kind: "a bundle id is"),
                attributesType: try RouteInputs.requiredId(body, "attributesType", maxLength: 128, kind: "a type name is"),
                environment: try RouteInputs.environment(body),
                userId: try RouteInputs.id(body, "userId"),
                groups: try (body.stringArray("groups", maxCount: 32) ?? []).enumerated().map { index, group throws(APIError) in
                    try RouteInputs.printable("groups[\(index)]", group, kind: "ids are")
                },
                frequentPushesEnabled: try body.bool("frequentPushesEnabled") ?? false,
                at: Date()
            )
            return APIResponse.json(ActivityView(try await activities.register(registration, as: try context.actor)), status: .created)
        }
        routes.put("activities/:activityId/push-token") { request, context -> Response in
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request)
            try body.allowOnly(PushTokenRotationBody.fields)
            let token = try RouteInputs.token(body, "pushToken")
            return APIResponse.json(ActivityView(try await activities.rotateToken(activityId: activityId, to: token, as: try context.actor)))
        }
        routes.put("push-to-start-tokens") { request, context -> Response in
            let body = try await JSONBody.read(request)
            try body.allowOnly(PushToStartTokenBody.fields)
            let registration = PushToStartRegistration(
                userId: try RouteInputs.id(body, "userId") ?? "",
                deviceId: try RouteInputs.requiredId(body, "deviceId"),
                bundleId: try RouteInputs.requiredId(body, "bundleId", maxLength: 255, kind: "a bundle id is"),
                attributesType: try RouteInputs.requiredId(body, "attributesType", maxLength: 128, kind: "a type name is"),
                environment: try RouteInputs.environment(body),
                token: try RouteInputs.token(body, "token"),
                at: Date()
            )
            return APIResponse.json(PushToStartView(try await activities.storePushToStartToken(registration, as: try context.actor)))
        }
        // The app signs out (or the device changes hands): its push-to-start tokens may then go to another user.
        routes.delete("push-to-start-tokens/:deviceId") { _, context -> Response in
            let deviceId = try RouteInputs.pathId("deviceId", context)
            let released = try await activities.releasePushToStartTokens(deviceId: deviceId, as: try context.actor)
            return APIResponse.json(ReleasedPushToStartTokensView(deviceId: deviceId, released: released))
        }
        routes.post("activities/:activityId/ended") { request, context -> Response in
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(EndedBody.fields)
            let dismissal = try body.date("dismissalDate", now: clock.now(), earliest: JSONBody.earliestDismissal)
            return APIResponse.json(ActivityView(try await activities.endedByApp(activityId: activityId, dismissalDate: dismissal, as: try context.actor)))
        }
        // ActivityKit's `.dismissed`: the person removed it, or the system did after its dismissal date.
        routes.post("activities/:activityId/dismissed") { request, context -> Response in
            let activityId = try RouteInputs.pathId("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(DismissedBody.fields)
            return APIResponse.json(ActivityView(try await activities.dismissedByApp(activityId: activityId, as: try context.actor)))
        }
    }
}
