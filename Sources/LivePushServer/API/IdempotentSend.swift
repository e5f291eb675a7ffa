import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import LiveActivity

/// The send routes' handling of `Idempotency-Key`: without the header a route runs as usual; with it, the
/// route runs once per key and principal (`IdempotencyService`) and a retry gets the stored answer with
/// `Idempotent-Replayed: true`.
struct IdempotentSend: Sendable {
    let service: IdempotencyService
    let clock: any WallClock

    static let header = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    /// Answers `send`'s value with `status`, once per Idempotency-Key; `send` gets the body the contract's
    /// `route` accepted (at most `bodyLimit` bytes), decoded as the contract's type of it, and the time it was
    /// checked at.
    func respond<Body: Decodable, Value: Encodable & Sendable>(
        _ request: Request, _ context: APIRequestContext, _ route: ContractRoute, _ body: Body.Type, status: HTTPResponse.Status,
        bodyLimit: Int = JSONBody.maximumBytes, _ send: @Sendable (Body, Date) async throws -> Value
    ) async throws -> Response {
        let buffer = try await JSONBody.collect(request, limit: bodyLimit)
        let clock = self.clock
        func checkedSend() async throws -> Value {
            let now = clock.now()
            return try await send(try route.body(body, buffer, now: now), now)
        }
        let keys = request.headers[values: Self.header]
        guard let key = keys.first else {
            return APIResponse.json(try await checkedSend(), status: status)
        }
        guard keys.count == 1 else {
            throw APIError.badRequest("Idempotency-Key", "idempotencyKey", "give the Idempotency-Key header once")
        }
        let principal = try context.requireIdentity()
        let fingerprint = IdempotencyService.fingerprint(method: request.method.rawValue, path: request.uri.path, body: buffer.readableBytesView)
        let answer = try await service.once(owner: principal.name, key: key, fingerprint: fingerprint) {
            let value = try await checkedSend()
            return (Int(status.code), try APIResponse.encode(value))
        }
        var response = APIResponse.raw(answer.body, contentType: "application/json; charset=utf-8", status: HTTPResponse.Status(code: answer.status))
        if answer.replayed { response.headers[Self.replayedHeader] = "true" }
        return response
    }

    /// `respond` for an update, end or start: the body is decoded as the contract's type of `kind` (`Update`,
    /// `End`, `Start`), which `send` gets as the push it asks for.
    func respond<Value: Encodable & Sendable>(
        _ request: Request, _ context: APIRequestContext, _ route: ContractRoute, push kind: LiveActivityEvent, status: HTTPResponse.Status,
        _ send: @Sendable (PushRequestBody, Date) async throws -> Value
    ) async throws -> Response {
        switch kind {
        case .update: try await respond(request, context, route, Schemas.Update.self, status: status) { try await send(PushRequestBody($0), $1) }
        case .end: try await respond(request, context, route, Schemas.End.self, status: status) { try await send(PushRequestBody($0), $1) }
        case .start: try await respond(request, context, route, Schemas.Start.self, status: status) { try await send(PushRequestBody($0), $1) }
        }
    }
}
