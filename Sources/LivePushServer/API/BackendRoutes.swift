import Foundation
import Hummingbird
import PushStore

/// The backend-facing routes (backend keys): update or end an activity or a group, start activities by
/// push-to-start, read an activity with its delivery history.
struct BackendRoutes: Sendable {
    let services: ServerServices

    func add(to router: Router<BasicRequestContext>) {
        let services = services
        for kind in [PushKind.update, .end] {
            router.post("/v1/activities/:activityId/\(kind.rawValue)") { request, context -> Response in
                try await services.authenticator.require(.backend, authorization: RouteInputs.authorization(request))
                let activityId = try RouteInputs.pathId("activityId", context)
                let body = try PushRequestBody.parse(try await JSONBody.read(request), kind: kind, now: services.clock.now())
                guard let activity = try await services.store.activity(id: activityId) else {
                    throw APIError.notFound("activityId", "no activity '\(activityId)' is registered")
                }
                if let problem = PushAcceptor.ineligibility(activity) {
                    throw APIError.conflict("activityId", problem.rule, problem.message)
                }
                let accepted = try await services.acceptor.accept(kind: kind, body: body, activities: [activity], skipped: [])
                return APIResponse.json(accepted, status: .accepted)
            }
            router.post("/v1/groups/:groupId/\(kind.rawValue)") { request, context -> Response in
                try await services.authenticator.require(.backend, authorization: RouteInputs.authorization(request))
                let groupId = try RouteInputs.pathId("groupId", context)
                let body = try PushRequestBody.parse(try await JSONBody.read(request), kind: kind, now: services.clock.now())
                let members = try await services.store.activities(inGroup: groupId)
                guard !members.isEmpty else {
                    throw APIError.notFound("groupId", "no activity is registered in group '\(groupId)'")
                }
                var eligible: [ActivityRecord] = []
                var skipped: [AcceptedPushes.Skipped] = []
                for activity in members {
                    if let problem = PushAcceptor.ineligibility(activity) {
                        if activity.state == .active { skipped.append(.init(activityId: activity.activityId, reason: problem.message)) }
                    } else {
                        eligible.append(activity)
                    }
                }
                let accepted = try await services.acceptor.accept(kind: kind, body: body, activities: eligible, skipped: skipped)
                return APIResponse.json(accepted, status: .accepted)
            }
        }
        router.post("/v1/users/:userId/start") { request, context -> Response in
            try await services.authenticator.require(.backend, authorization: RouteInputs.authorization(request))
            let userId = try RouteInputs.pathId("userId", context)
            let body = try PushRequestBody.parse(try await JSONBody.read(request), kind: .start, now: services.clock.now())
            let attributesType = body.attributesType ?? ""
            let tokens = try await services.store.pushToStartTokens(forUser: userId, attributesType: attributesType)
            let valid = tokens.filter { $0.tokenState.isValid }
            guard !valid.isEmpty else {
                throw APIError.notFound("userId", "user '\(userId)' has no valid push-to-start token for '\(attributesType)'; the app stores one with PUT /v1/push-to-start-tokens")
            }
            let skipped = tokens.filter { !$0.tokenState.isValid }.map {
                AcceptedPushes.Skipped(pushToStartTokenId: $0.id.lowercased, reason: "push-to-start token of device '\($0.deviceId)' is invalid")
            }
            let accepted = try await services.acceptor.acceptStart(body: body, tokens: valid, skipped: skipped)
            return APIResponse.json(accepted, status: .accepted)
        }
        router.get("/v1/activities/:activityId") { request, context -> Response in
            try await services.authenticator.require(.backend, authorization: RouteInputs.authorization(request))
            let activityId = try RouteInputs.pathId("activityId", context)
            guard let activity = try await services.store.activity(id: activityId) else {
                throw APIError.notFound("activityId", "no activity '\(activityId)' is registered")
            }
            let deliveries = try await services.store.deliveries(activityId: activityId, limit: services.configuration.historyLimit)
            let pending = try await services.store.pendingItems(activityId: activityId)
            return APIResponse.json(ActivityDetail(
                activity: ActivityView(activity), deliveries: deliveries.map(DeliveryView.init), pending: pending.map(PendingView.init)
            ))
        }
    }
}
