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
            let opened = try await identity.openInstallation(as: try context.actor, keyID: try context.requireIdentity().keyID)
            return APIResponse.json(
                InstallationView(installationID: opened.installationID, token: opened.token, expiresAt: opened.expiresAt), status: .created)
        }
        // Before its token expires, an installation renews it with that token.
        routes.post("installations/:installationId/token") { request, context -> Response in
            let installationID = try RouteInputs.pathID("installationId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(EmptyBody.fields)
            let renewed = try await identity.renewInstallation(installationID, as: try context.requireIdentity())
            return APIResponse.json(
                InstallationView(installationID: installationID, token: renewed.token, expiresAt: renewed.expiresAt), status: .created)
        }
        routes.post("activities") { request, context -> Response in
            let body = try await JSONBody.read(request)
            try body.allowOnly(ActivityRegistrationBody.fields)
            let registration = ActivityRegistration(
                activityID: try RouteInputs.requiredID(body, "activityId"),
                pushToken: try RouteInputs.token(body, "pushToken"),
                bundleID: try RouteInputs.requiredID(body, "bundleId", maxLength: 255, kind: "a bundle id is"),
                attributesType: try RouteInputs.requiredID(body, "attributesType", maxLength: 128, kind: "a type name is"),
                environment: try RouteInputs.environment(body),
                userID: try RouteInputs.id(body, "userId"),
                groups: try (body.stringArray("groups", maxCount: 32) ?? []).enumerated().map { index, group throws(APIError) in
                    try RouteInputs.printable("groups[\(index)]", group, kind: "ids are")
                },
                frequentPushesEnabled: try body.bool("frequentPushesEnabled") ?? false,
                at: Date()
            )
            return APIResponse.json(ActivityView(try await activities.register(registration, as: try context.actor)), status: .created)
        }
        routes.put("activities/:activityId/push-token") { request, context -> Response in
            let activityID = try RouteInputs.pathID("activityId", context)
            let body = try await JSONBody.read(request)
            try body.allowOnly(PushTokenRotationBody.fields)
            let token = try RouteInputs.token(body, "pushToken")
            return APIResponse.json(ActivityView(try await activities.rotateToken(activityID: activityID, to: token, as: try context.actor)))
        }
        routes.put("push-to-start-tokens") { request, context -> Response in
            let body = try await JSONBody.read(request)
            try body.allowOnly(PushToStartTokenBody.fields)
            let registration = PushToStartRegistration(
                userID: try RouteInputs.id(body, "userId") ?? "",
                deviceID: try RouteInputs.requiredID(body, "deviceId"),
                bundleID: try RouteInputs.requiredID(body, "bundleId", maxLength: 255, kind: "a bundle id is"),
                attributesType: try RouteInputs.requiredID(body, "attributesType", maxLength: 128, kind: "a type name is"),
                environment: try RouteInputs.environment(body),
                token: try RouteInputs.token(body, "token"),
                at: Date()
            )
            return APIResponse.json(PushToStartView(try await activities.storePushToStartToken(registration, as: try context.actor)))
        }
        // The app signs out (or the device changes hands): its push-to-start tokens may then go to another user.
        routes.delete("push-to-start-tokens/:deviceId") { _, context -> Response in
            let deviceID = try RouteInputs.pathID("deviceId", context)
            let released = try await activities.releasePushToStartTokens(deviceID: deviceID, as: try context.actor)
            return APIResponse.json(ReleasedPushToStartTokensView(deviceID: deviceID, released: released))
        }
        routes.post("activities/:activityId/ended") { request, context -> Response in
            let activityID = try RouteInputs.pathID("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(EndedBody.fields)
            let dismissal = try body.date("dismissalDate", now: clock.now(), earliest: JSONBody.earliestDismissal)
            return APIResponse.json(
                ActivityView(try await activities.endedByApp(activityID: activityID, dismissalDate: dismissal, as: try context.actor)))
        }
        // ActivityKit's `.dismissed`: the person removed it, or the system did after its dismissal date.
        routes.post("activities/:activityId/dismissed") { request, context -> Response in
            let activityID = try RouteInputs.pathID("activityId", context)
            let body = try await JSONBody.read(request, allowEmpty: true)
            try body.allowOnly(DismissedBody.fields)
            return APIResponse.json(ActivityView(try await activities.dismissedByApp(activityID: activityID, as: try context.actor)))
        }
    }
}
