import APNsCore
import Foundation
import Hummingbird
import LiveActivity

/// The backend's broadcast channel routes (behind a backend key): create, list, read, delete, and update
/// or end every subscribed activity with one broadcast. Each reads its input and calls `ChannelService`
/// or `PushService`.
struct ChannelRoutes: Sendable {
    let channels: ChannelService
    let pushes: PushService
    let idempotent: IdempotentSend
    let clock: any WallClock

    func add(to routes: RouterGroup<APIRequestContext>) {
        let (channels, pushes, idempotent, clock) = (channels, pushes, idempotent, clock)
        let create = ContractRoute("createChannel")
        routes.post("channels") { request, _ -> Response in
            // Checked before APNs is asked to create anything.
            let body = try await create.body(Schemas.ChannelCreation.self, request, now: clock.now())
            let creation = ChannelService.Creation(
                name: body.name.value1, bundleID: body.bundleId, storagePolicy: body.storagePolicy.rawValue, groupID: body.groupId?.value1)
            return APIResponse.json(Schemas.Channel(try await channels.create(creation)), status: .created)
        }
        let list = ContractRoute("listChannels")
        routes.get("channels") { request, _ -> Response in
            let channels = try await channels.list(bundleID: try list.query("bundleId", request))
            return APIResponse.json(Schemas.ChannelList(channels: channels.map(Schemas.Channel.init), limit: ChannelService.limit))
        }
        let read = ContractRoute("getChannel")
        routes.get("channels/:channelId") { _, context -> Response in
            let detail = try await channels.detail(id: try Self.channelID(read, context))
            return APIResponse.json(
                Schemas.ChannelDetail(channel: Schemas.Channel(detail.channel), deliveries: try detail.deliveries.map(Schemas.Delivery.init)))
        }
        let delete = ContractRoute("deleteChannel")
        routes.delete("channels/:channelId") { _, context -> Response in
            APIResponse.json(Schemas.Channel(try await channels.delete(id: try Self.channelID(delete, context))))
        }
        for kind in [LiveActivityEvent.update, .end] {
            let send = PushRequestBody.operation("Channel", kind)
            routes.post("channels/:channelId/\(kind.rawValue)") { request, context -> Response in
                let channel = try await channels.existing(try Self.channelID(send, context))
                return try await idempotent.respond(request, context, send, push: kind, status: .accepted) { body, now in
                    Schemas.Accepted(try await pushes.send(kind, toChannel: channel, body.content(now: now)))
                }
            }
        }
    }

    /// The channel id of the path: ours are UUIDs, so any other text names no channel (404).
    static func channelID(_ route: ContractRoute, _ context: some RequestContext) throws(APIError) -> UUID {
        let text = try route.pathID("channelId", context)
        guard let id = UUID(uuidString: text) else {
            throw APIError.notFound("channelId", "no channel '\(text)' is stored; channel ids are the UUIDs POST /v1/channels answers")
        }
        return id
    }
}
