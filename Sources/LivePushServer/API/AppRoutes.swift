import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import PushStore

/// The app's routes (behind an app credential): open an installation, register an activity, rotate its
/// token, store push-to-start tokens, report an activity ended or dismissed. Each reads its input and
/// calls `ActivityService`, `ActivityRegistrar` or `IdentityService` as the request's principal
/// (`AppActor`: a user token acts for its user only). `ActivityService` stamps registrations with the
/// time they arrive: the `at` given here is replaced.
struct AppRoutes: Sendable {
    let activities: ActivityService
    let registrar: ActivityRegistrar
    let identity: IdentityService
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (activities, registrar, identity, clock) = (activities, registrar, identity, clock)
        let open = ContractRoute("openInstallation")
        routes.post("installations") { request, context -> Response in
            _ = try await open.body(Schemas.InstallationRequest.self, request, now: clock.now())
            let opened = try await identity.openInstallation(as: try context.actor, keyID: try context.requireIdentity().keyID)
            return APIResponse.json(
                Schemas.Installation(installationId: opened.installationID, token: opened.token, expiresAt: opened.expiresAt), status: .created)
        }
        // Before its token expires, an installation renews it with that token.
        let renew = ContractRoute("renewInstallationToken")
        routes.post("installations/:installationId/token") { request, context -> Response in
            let installationID = try renew.pathID("installationId", context)
            _ = try await renew.body(Schemas.InstallationRequest.self, request, now: clock.now())
            let renewed = try await identity.renewInstallation(installationID, as: try context.requireIdentity())
            return APIResponse.json(
                Schemas.Installation(installationId: installationID, token: renewed.token, expiresAt: renewed.expiresAt), status: .created)
        }
        let register = ContractRoute("registerActivity")
        routes.post("activities") { request, context -> Response in
            let body = try await register.body(Schemas.ActivityRegistration.self, request, now: clock.now())
            let registration = ActivityRegistration(
                activityID: body.activityId,
                pushToken: try RouteInputs.token(body.pushToken, "pushToken"),
                bundleID: body.bundleId,
                attributesType: body.attributesType,
                environment: RouteInputs.environment(body.environment),
                userID: body.userId?.value1,
                groups: body.groups ?? [],
                frequentPushesEnabled: body.frequentPushesEnabled ?? false,
                at: Date()
            )
            let actor = try context.actor
            // Renewal: this activity's own plan, and the activity it takes over from (both optional).
            let plan = try body.renewal.map { (renewal) throws(DomainError) in
                RenewalRequest(
                    renewBefore: try RenewalRequest.check(
                        renewal.value1.renewBefore, maximumActiveDuration: activities.settings.maximumActiveDuration),
                    attributes: renewal.value1.attributes, alert: JSONValue(renewal.value1.alert))
            }
            // The app's ContentState shape (the contract has checked it).
            let shape = body.contentStateShape.flatMap { try? ContentStateShape(json: $0.value1) }
            let record = try await registrar.register(
                registration, as: actor, grant: try context.requireIdentity().groupGrant, plan: plan, renews: body.renews?.value1,
                resourceKey: body.liveActivityKey?.value1, shape: shape)
            return APIResponse.json(try Schemas.Activity(record), status: .created)
        }
        let rotate = ContractRoute("rotatePushToken")
        routes.put("activities/:activityId/push-token") { request, context -> Response in
            let activityID = try rotate.pathID("activityId", context)
            let body = try await rotate.body(Schemas.PushTokenRotation.self, request, now: clock.now())
            let token = try RouteInputs.token(body.pushToken, "pushToken")
            return APIResponse.json(try Schemas.Activity(try await activities.rotateToken(activityID: activityID, to: token, as: try context.actor)))
        }
        let storeStart = ContractRoute("storePushToStartToken")
        routes.put("push-to-start-tokens") { request, context -> Response in
            let body = try await storeStart.body(Schemas.PushToStartToken.self, request, now: clock.now())
            let registration = PushToStartRegistration(
                userID: body.userId?.value1 ?? "",
                deviceID: body.deviceId,
                bundleID: body.bundleId,
                attributesType: body.attributesType,
                environment: RouteInputs.environment(body.environment),
                token: try RouteInputs.token(body.token, "token"),
                at: Date(),
                // The contract's two values are the domain's.
                source: body.source.flatMap { PushToStartTokenSource(rawValue: $0.value1.rawValue) }
            )
            return APIResponse.json(
                try Schemas.PushToStartTokenStored(try await activities.storePushToStartToken(registration, as: try context.actor)))
        }
        // The app signs out (or the device changes hands): its push-to-start tokens may then go to another user.
        let release = ContractRoute("releasePushToStartTokens")
        routes.delete("push-to-start-tokens/:deviceId") { _, context -> Response in
            let deviceID = try release.pathID("deviceId", context)
            let released = try await activities.releasePushToStartTokens(deviceID: deviceID, as: try context.actor)
            return APIResponse.json(Schemas.ReleasedPushToStartTokens(deviceId: deviceID, released: released))
        }
        let ended = ContractRoute("activityEnded")
        routes.post("activities/:activityId/ended") { request, context -> Response in
            let activityID = try ended.pathID("activityId", context)
            let now = clock.now()
            let dismissal = try await ended.body(Schemas.EndedByApp.self, request, now: now).dismissalDate?.value1.moment(now: now)
            return APIResponse.json(
                try Schemas.Activity(try await activities.endedByApp(activityID: activityID, dismissalDate: dismissal, as: try context.actor)))
        }
        // ActivityKit's `.dismissed`: the person removed it, or the system did after its dismissal date.
        let dismissed = ContractRoute("activityDismissed")
        routes.post("activities/:activityId/dismissed") { request, context -> Response in
            let activityID = try dismissed.pathID("activityId", context)
            _ = try await dismissed.body(Schemas.DismissedByApp.self, request, now: clock.now())
            return APIResponse.json(try Schemas.Activity(try await activities.dismissedByApp(activityID: activityID, as: try context.actor)))
        }
    }
}
