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
        routes.post("channels") { request, _ -> Response in
            let body = try await JSONBody.read(request)
            try body.allowOnly(ChannelCreationBody.fields)
            // Checked before APNs is asked to create anything.
            let groupID = try body.string("groupId", maxLength: RouteInputs.maximumIDLength)
            let creation = ChannelService.Creation(
                name: try RouteInputs.printable("name", try body.requiredString("name", maxLength: RouteInputs.maximumIDLength), kind: "ids are"),
                bundleID: try RouteInputs.printable("bundleId", try body.requiredString("bundleId", maxLength: 255), kind: "a bundle id is"),
                storagePolicy: try Self.storagePolicy(body),
                groupID: try groupID.map { value throws(APIError) in try RouteInputs.printable("groupId", value, kind: "ids are") })
            return APIResponse.json(ChannelView(try await channels.create(creation)), status: .created)
        }
        routes.get("channels") { request, _ -> Response in
            let bundleID = try Self.bundleIDQuery(request)
            let list = try await channels.list(bundleID: bundleID)
            return APIResponse.json(ChannelList(channels: list.map(ChannelView.init), limit: ChannelService.limit))
        }
        routes.get("channels/:channelId") { _, context -> Response in
            let detail = try await channels.detail(id: try Self.channelID(context))
            return APIResponse.json(ChannelDetail(channel: ChannelView(detail.channel), deliveries: detail.deliveries.map(DeliveryView.init)))
        }
        routes.delete("channels/:channelId") { _, context -> Response in
            APIResponse.json(ChannelView(try await channels.delete(id: try Self.channelID(context))))
        }
        for kind in [LiveActivityEvent.update, .end] {
            routes.post("channels/:channelId/\(kind.rawValue)") { request, context -> Response in
                let channel = try await channels.existing(try Self.channelID(context))
                return try await idempotent.respond(request, context, status: .accepted) { body in
                    AcceptedPushes(try await pushes.send(kind, toChannel: channel, try PushRequestBody.parse(body, kind: kind, now: clock.now())))
                }
            }
        }
    }

    /// The channel id of the path: ours are UUIDs, so any other text names no channel (404).
    static func channelID(_ context: some RequestContext) throws(APIError) -> UUID {
        let text = try RouteInputs.pathID("channelId", context)
        guard let id = UUID(uuidString: text) else {
            throw APIError.notFound("channelId", "no channel '\(text)' is stored; channel ids are the UUIDs POST /v1/channels answers")
        }
        return id
    }

    /// `?bundleId=` of the list: the document's BundleId (1 to 255 characters, no control character), or
    /// absent for every app's channels. Before, any text was taken and simply matched nothing.
    static func bundleIDQuery(_ request: Request) throws(APIError) -> String? {
        guard let value = request.uri.queryParameters.get("bundleId") else { return nil }
        guard !value.isEmpty else {
            throw .badRequest(
                "bundleId", "nonEmpty", "'bundleId' is empty; give the app's bundle id (1 to 255 characters) or leave it out for every app's channels"
            )
        }
        try JSONBody.checkBytes("bundleId", value, maxLength: 255)
        guard value.count <= 255 else {
            throw .badRequest("bundleId", "maxLength", "'bundleId' has \(value.count) characters; at most 255 are accepted")
        }
        return try RouteInputs.printable("bundleId", value, kind: "a bundle id is")
    }

    static func storagePolicy(_ body: JSONBody) throws(APIError) -> Int {
        guard let policy = try body.integer("storagePolicy") else {
            throw .badRequest(
                "storagePolicy", "required", "'storagePolicy' is required: 0 (no message stored) or 1 (the most recent stored for up to 8 hours)")
        }
        guard policy == 0 || policy == 1 else {
            throw .badRequest(
                "storagePolicy", "oneOf",
                "'storagePolicy' is \(policy); accepted: 0 (no message stored) or 1 (the most recent stored for up to 8 hours)")
        }
        return policy
    }
}
