import APNsCore
import Foundation
import Hummingbird
import LiveActivity

/// The backend's Live Activities as resources (behind a backend key): `PUT` the activity a user should
/// see under a key, `GET` it, `DELETE` it. Each reads its input and calls `LiveActivityResourceService`
/// for the user of the path only.
struct LiveActivityRoutes: Sendable {
    let resources: LiveActivityResourceService
    let maximumActiveDuration: TimeInterval
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (resources, maximumActiveDuration, clock) = (resources, maximumActiveDuration, clock)
        let put = ContractRoute("putLiveActivity")
        routes.put("users/:userId/live-activities/:key") { request, context -> Response in
            let (userID, key) = try Self.resource(put, context)
            let now = clock.now()
            let body = try await put.body(Schemas.LiveActivityPut.self, request, now: now)
            let wanted = WantedLiveActivity(
                attributesType: body.attributesType, attributes: body.attributes, contentState: body.contentState,
                alert: body.alert.map { JSONValue($0.value1) }, staleDate: body.staleDate?.value1.moment(now: now),
                relevanceScore: body.relevanceScore,
                renewBefore: try body.renewal.map { (renewal) throws(DomainError) in
                    try RenewalRequest.check(renewal.renewBefore, maximumActiveDuration: maximumActiveDuration)
                })
            return APIResponse.json(try Schemas.LiveActivityOutcome(try await resources.put(user: userID, key: key, wanted)))
        }
        let get = ContractRoute("getLiveActivity")
        routes.get("users/:userId/live-activities/:key") { _, context -> Response in
            let (userID, key) = try Self.resource(get, context)
            let found = try await resources.resource(user: userID, key: key)
            return APIResponse.json(try Schemas.LiveActivityResource(found.resource, history: found.history))
        }
        let end = ContractRoute("endLiveActivity")
        routes.delete("users/:userId/live-activities/:key") { request, context -> Response in
            let (userID, key) = try Self.resource(end, context)
            let now = clock.now()
            let body = try await end.body(Schemas.LiveActivityEnd.self, request, now: now)
            let answer = try await resources.end(
                user: userID, key: key, contentState: body.contentState?.value1,
                dismissalDate: body.dismissalDate?.value1.moment(now: now))
            return APIResponse.json(try Schemas.LiveActivityOutcome(answer))
        }
    }

    /// The resource a route's path names: `users/:userId/live-activities/:key`.
    private static func resource(_ route: ContractRoute, _ context: APIRequestContext) throws(APIError) -> (userID: String, key: String) {
        (try route.pathID("userId", context), try route.pathID("key", context))
    }
}
