import Foundation
import Hummingbird

/// The control routes for apps, devices and activities.
struct DeviceRoutes: Sendable {
    let world: DeviceWorld

    func add(to router: Router<BasicRequestContext>) {
        let world = world
        router.post("/v1/apps") { request, _ -> Response in
            let registration = try await ControlResponse.require(AppRegistration.self, from: request)
            return ControlResponse.json(try await Self.run { try await world.registerApp(registration) }, status: .created)
        }
        router.get("/v1/apps") { _, _ -> Response in
            ControlResponse.json(["apps": await world.registeredApps()])
        }
        router.post("/v1/devices") { request, _ -> Response in
            let registration = try await ControlResponse.require(DeviceRegistration.self, from: request)
            return ControlResponse.json(try await Self.run { try await world.addDevice(registration) }, status: .created)
        }
        router.get("/v1/devices") { _, _ -> Response in
            ControlResponse.json(["devices": await world.allDevices()])
        }
        router.get("/v1/devices/:deviceId") { _, context -> Response in
            let id = try ControlResponse.parameter("deviceId", context)
            return ControlResponse.json(try await Self.run { try await world.device(id: id) })
        }
        router.post("/v1/devices/:deviceId/apps") { request, context -> Response in
            let id = try ControlResponse.parameter("deviceId", context)
            let body = try await ControlResponse.require(InstallRequest.self, from: request)
            let token = try await Self.run { try await world.installApp(bundleID: body.bundleID, onDevice: id) }
            return ControlResponse.json(["bundleId": body.bundleID, "pushToStartToken": token], status: .created)
        }
        router.post("/v1/devices/:deviceId/rotate-push-to-start-token") { request, context -> Response in
            let id = try ControlResponse.parameter("deviceId", context)
            let body = try await ControlResponse.decode(RotateRequest.self, from: request, allowEmpty: true)
            let token = try await Self.run { try await world.rotatePushToStartToken(deviceID: id, bundleID: body?.bundleID) }
            return ControlResponse.json(["pushToStartToken": token])
        }
        router.post("/v1/devices/:deviceId/activities") { request, context -> Response in
            let id = try ControlResponse.parameter("deviceId", context)
            let body = try await ControlResponse.require(ActivityRequest.self, from: request)
            if body.channelID != nil {
                return ControlResponse.json(try await Self.run { try await world.startChannelActivity(deviceID: id, body) }, status: .created)
            }
            return ControlResponse.json(try await Self.run { try await world.startActivity(deviceID: id, body) }, status: .created)
        }
        router.get("/v1/activities/:activityId") { _, context -> Response in
            let id = try ControlResponse.parameter("activityId", context)
            return ControlResponse.json(try await Self.run { try await world.activity(id: id) })
        }
        router.post("/v1/activities/:activityId/rotate-token") { _, context -> Response in
            let id = try ControlResponse.parameter("activityId", context)
            let token = try await Self.run { try await world.rotateActivityToken(activityID: id) }
            return ControlResponse.json(["pushToken": token])
        }
        router.post("/v1/tokens/:token/expire") { _, context -> Response in
            let token = try ControlResponse.parameter("token", context)
            let expiredAt = try await Self.run { try await world.expireToken(token) }
            return ControlResponse.json(TokenExpiry(token: token.lowercased(), expiredAt: expiredAt))
        }
        router.post("/v1/activities/:activityId/end") { request, context -> Response in
            let id = try ControlResponse.parameter("activityId", context)
            let body = try await ControlResponse.decode(EndRequest.self, from: request, allowEmpty: true)
            let immediate = body?.immediate ?? false
            return ControlResponse.json(try await Self.run { try await world.endActivity(activityID: id, immediate: immediate) })
        }
    }

    /// Runs a world operation, turning its refusal into the JSON error shape.
    static func run<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch let error as DeviceWorldError {
            throw ControlError(error)
        }
    }

    struct InstallRequest: Decodable {
        // The JSON names stay as the API and the simulator have always spelled them.
        enum CodingKeys: String, CodingKey {
            case bundleID = "bundleId"
        }
        var bundleID: String
    }
    struct RotateRequest: Decodable {
        // The JSON names stay as the API and the simulator have always spelled them.
        enum CodingKeys: String, CodingKey {
            case bundleID = "bundleId"
        }
        var bundleID: String?
    }
    /// The answer to expiring a token: from `expiredAt` on, pushes to it get 410 `ExpiredToken`.
    struct TokenExpiry: Encodable, Sendable {
        var token: String
        var expiredAt: Date
    }
    /// `immediate`: the user removed it (dismissed at once) rather than the app ending it.
    struct EndRequest: Decodable { var immediate: Bool? }
}
