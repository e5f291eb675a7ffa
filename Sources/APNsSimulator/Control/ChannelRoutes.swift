import Foundation
import Hummingbird

/// The control routes for broadcast channels and their subscribers.
struct ChannelRoutes: Sendable {
    let world: DeviceWorld

    func add(to router: Router<BasicRequestContext>) {
        let world = world
        router.get("/v1/channels") { _, _ -> Response in
            ControlResponse.json(["channels": await world.allChannels()])
        }
        router.post("/v1/channels") { request, _ -> Response in
            let body = try await ControlResponse.require(ChannelRegistration.self, from: request)
            return ControlResponse.json(try await DeviceRoutes.run { try await world.createChannel(body) }, status: .created)
        }
        router.get("/v1/channels/:channelId") { request, context -> Response in
            let id = try ControlResponse.parameter("channelId", context)
            var limit = 1000
            if let raw = request.uri.queryParameters.get("subscribers") {
                guard let parsed = Int(raw), parsed >= 0 else {
                    throw ControlError(.badRequest, field: "subscribers", "'\(raw)' is not a whole number of subscribers to list (0 or more)")
                }
                limit = parsed
            }
            return ControlResponse.json(try await DeviceRoutes.run { try await world.channel(id: id, subscriberLimit: limit) })
        }
        router.post("/v1/devices/:deviceId/activities/bulk") { request, context -> Response in
            let id = try ControlResponse.parameter("deviceId", context)
            let body = try await ControlResponse.require(BulkActivityRequest.self, from: request)
            return ControlResponse.json(
                try await DeviceRoutes.run { try await world.startChannelActivities(deviceID: id, body.activity, count: body.count) },
                status: .created
            )
        }
    }
}
