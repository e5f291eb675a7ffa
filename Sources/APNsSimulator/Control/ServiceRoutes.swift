import APNsCore
import Foundation
import Hummingbird

/// The control routes for trusted keys, faults, the push log, the CA certificate and health.
struct ServiceRoutes: Sendable {
    let world: DeviceWorld
    let keys: TrustedKeys
    let faults: FaultInjector
    let caCertificatePEM: String

    func add(to router: Router<BasicRequestContext>) {
        let (world, keys, faults, caPEM) = (world, keys, faults, caCertificatePEM)
        router.get("/health") { _, _ -> Response in
            ControlResponse.json(["status": "ok"])
        }
        router.get("/ca.pem") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "application/x-pem-file"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: caPEM)))
        }
        router.post("/v1/keys") { request, _ -> Response in
            let body = try await ControlResponse.require(KeyRegistration.self, from: request)
            return ControlResponse.json(try Self.register(body, in: keys), status: .created)
        }
        router.get("/v1/keys") { _, _ -> Response in
            ControlResponse.json(["keys": keys.all()])
        }
        router.get("/v1/faults") { _, _ -> Response in
            ControlResponse.json(["faults": faults.rules()])
        }
        router.post("/v1/faults") { request, _ -> Response in
            let rule = try await ControlResponse.require(FaultRule.self, from: request)
            do {
                let id = try faults.add(rule)
                let stored = faults.rules().first { $0.id == id }
                return ControlResponse.json(stored ?? FaultEntry(id: id, rule: rule), status: .created)
            } catch let error as FaultRuleError {
                throw ControlError(.badRequest, field: Self.faultField(error.description), error.description)
            }
        }
        router.delete("/v1/faults") { _, _ -> Response in
            faults.removeAll()
            return ControlResponse.json(["faults": [FaultEntry]()])
        }
        router.delete("/v1/faults/:faultId") { _, context -> Response in
            let raw = try ControlResponse.parameter("faultId", context)
            guard let id = Int(raw) else {
                throw ControlError(.badRequest, field: "faultId", "'\(raw)' is not a fault id; expected the number POST /v1/faults returned")
            }
            guard faults.remove(id: id) else {
                throw ControlError(.notFound, field: "faultId", "no fault \(id)")
            }
            return ControlResponse.json(["removed": id])
        }
        router.get("/v1/pushes") { request, _ -> Response in
            var limit = 100
            if let raw = request.uri.queryParameters.get("limit") {
                guard let parsed = Int(raw), parsed >= 1 else {
                    throw ControlError(.badRequest, field: "limit", "'\(raw)' is not a positive whole number")
                }
                limit = parsed
            }
            return ControlResponse.json(["pushes": await world.pushes(limit: limit)])
        }
    }

    /// `POST /v1/keys`: a provider key to trust, public PEM or `.p8` private PEM (only the public half is kept).
    struct KeyRegistration: Decodable {
        // The JSON names stay as the API and the simulator have always spelled them.
        enum CodingKeys: String, CodingKey {
            case keyID = "keyId"
            case teamID = "teamId"
            case relatedKeyID = "relatedKeyId"
            case publicKeyPEM, privateKeyPEM, environment, topics
        }

        var keyID: String
        var teamID: String
        var publicKeyPEM: String?
        var privateKeyPEM: String?
        var environment: String?
        var topics: [String]?
        var relatedKeyID: String?
    }

    static func register(_ body: KeyRegistration, in keys: TrustedKeys) throws -> TrustedKey {
        let pem: String
        let pemField: String
        switch (body.publicKeyPEM, body.privateKeyPEM) {
        case (let key?, nil): (pem, pemField) = (key, "publicKeyPEM")
        case (nil, let key?): (pem, pemField) = (key, "privateKeyPEM")
        case (.some, .some):
            throw ControlError(.badRequest, field: "privateKeyPEM", "give publicKeyPEM or privateKeyPEM, not both")
        case (nil, nil):
            throw ControlError(
                .badRequest, field: "publicKeyPEM", "is required: give publicKeyPEM (-----BEGIN PUBLIC KEY-----) or privateKeyPEM (the .p8 file)")
        }
        var environment: APNsEnvironment?
        if let raw = body.environment {
            do {
                environment = try DeviceWorld.environment(raw)
            } catch {
                throw ControlError(.badRequest, field: "environment", error.message)
            }
        }
        do {
            return try keys.register(
                keyID: body.keyID, teamID: body.teamID, pem: pem, environment: environment,
                topics: body.topics.map(Set.init), relatedKeyID: body.relatedKeyID)
        } catch {
            let field: String
            switch error {
            case .emptyKeyID: field = "keyId"
            case .emptyTeamID: field = "teamId"
            case .emptyTopics: field = "topics"
            case .unreadablePEM: field = pemField
            }
            throw ControlError(.badRequest, field: field, error.description)
        }
    }

    /// The FaultRule field a fault error message starts with.
    static func faultField(_ message: String) -> String? {
        let fields = ["status", "reason", "share", "latencyMilliseconds", "goAwayAfterStreams", "resetConnection", "token"]
        let first = message.prefix { $0.isLetter }
        return fields.first { $0 == first }
    }
}
