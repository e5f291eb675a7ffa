import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import PushStore

/// The provider console's routes (behind an operator key): the overview and the last hour's series,
/// pages of activities and sends (group sends, audience starts), one send with its members, a Live Activity kept by
/// key, and the test push. Each reads its input and calls `ConsoleService` (or, for a Live Activity by
/// key, `LiveActivityResourceService`).
struct OperatorRoutes: Sendable {
    /// Entries per page of the lists.
    static let pageSize = 50

    let console: ConsoleService
    let resources: LiveActivityResourceService
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (console, resources, clock) = (console, resources, clock)
        _ = ContractRoute("operatorOverview")  // no parameters and no body: it only names the operation
        routes.get("operator/overview") { _, _ -> Response in
            APIResponse.json(Schemas.OperatorOverview(try await console.overview()))
        }
        _ = ContractRoute("operatorContentStates")
        routes.get("operator/content-states") { _, _ -> Response in
            let found = try await console.contentStates()
            return APIResponse.json(try Schemas.OperatorContentStates(shapes: found.shapes, refusals: found.refusals))
        }
        _ = ContractRoute("operatorSeries")
        routes.get("operator/series") { _, _ -> Response in
            APIResponse.json(Schemas.OperatorSeries(try await console.series()))
        }
        let list = ContractRoute("operatorListActivities")
        routes.get("operator/activities") { request, _ -> Response in
            let query = ActivityPageQuery(
                userID: try list.query("userId", request), groupID: try list.query("groupId", request),
                after: try list.query("cursor", request).map { (cursor) throws(DomainError) in try ConsoleCursor.activity(cursor) },
                limit: Self.pageSize)
            let page = try await console.activities(query)
            return APIResponse.json(Schemas.OperatorActivityList(activities: try page.activities.map(Schemas.Activity.init), next: page.next))
        }
        let read = ContractRoute("operatorGetActivity")
        routes.get("operator/activities/:activityId") { _, context -> Response in
            APIResponse.json(try Schemas.OperatorActivity(try await console.activity(id: try read.pathID("activityId", context))))
        }
        // A Live Activity kept by key: its state, the activities it had and its history.
        let resource = ContractRoute("operatorGetLiveActivity")
        routes.get("operator/users/:userId/live-activities/:key") { _, context -> Response in
            let found = try await resources.resource(
                user: try resource.pathID("userId", context), key: try resource.pathID("key", context), historyLimit: 50)
            return APIResponse.json(try Schemas.LiveActivityResource(found.resource, history: found.history))
        }
        let sends = ContractRoute("operatorListSends")
        routes.get("operator/sends") { request, _ -> Response in
            let cursor = try sends.query("cursor", request)
            let page = try await console.sends(cursor: cursor, limit: Self.pageSize)
            // Group sends and audience starts, newest first; the broadcasts come with the first page (not paged).
            let broadcasts = cursor == nil ? try await console.broadcasts() : []
            return APIResponse.json(
                Schemas.OperatorSendList(
                    sends: try page.sends.map(Schemas.GroupSend.init),
                    broadcasts: try broadcasts.map(Schemas.OperatorSendList.BroadcastsPayloadPayload.init), next: page.next))
        }
        let send = ContractRoute("operatorGetSend")
        routes.get("operator/sends/:sendId") { _, context -> Response in
            APIResponse.json(try Schemas.OperatorSend(try await console.send(id: try send.pathID("sendId", context))))
        }
        let test = ContractRoute("operatorTestPush")
        routes.post("operator/activities/:activityId/test-push") { request, context -> Response in
            let activityID = try test.pathID("activityId", context)
            let body = try await test.body(Schemas.OperatorTestPush.self, request, now: clock.now())
            let accepted = try await console.testPush(
                activityID: activityID, confirmation: body.confirmActivityId, contentState: body.contentState,
                sentBy: try context.requireIdentity().name)
            return APIResponse.json(Schemas.Accepted(accepted), status: .accepted)
        }
    }
}
