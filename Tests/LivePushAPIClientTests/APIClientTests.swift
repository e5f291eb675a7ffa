import Foundation
import HTTPTypes
import LivePushAPIClient
import LivePushTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// The generated client (`LivePushAPIClient`) against a real `livepush serve` over the simulator, through
/// URLSession as an app would: what the contract says is what the server answers.
@Suite struct APIClientTests {
    @Test func registerUpdateAndReadBack() async throws {
        try await withSimulator { apns in
            try await withServer(over: apns) { server in
                let app = Client(serverURL: server.url, transport: URLSessionTransport(), middlewares: [BearerAuthentication(server.appKey)])
                let backend = Client(
                    serverURL: server.url, transport: URLSessionTransport(), middlewares: [BearerAuthentication(server.backendKey)])
                let activity = try await apns.startActivity(contentState: ["hp": 1])

                let registered = try await app.registerActivity(
                    body: .json(
                        .init(
                            activityId: "quest-1", pushToken: activity.pushToken, bundleId: apns.bundleID,
                            attributesType: apns.attributesTypes[0], environment: .sandbox)))
                let stored = try registered.created.body.json
                #expect(stored.activityId == "quest-1")
                #expect(stored.state == .active)

                let accepted = try await backend.updateActivity(
                    path: .init(activityId: "quest-1"),
                    body: .json(.init(contentState: .init(unvalidatedValue: ["hp": 2]), priority: .init(value1: ._10))))
                #expect(try accepted.accepted.body.json.pushIds.count == 1)
                #expect(await eventually { (try? await apns.contentState(of: activity))?["hp"]?.numberValue == 2 })

                // Read back: the delivery is recorded once APNs answered, and the last state with it.
                let shown = try OpenAPIObjectContainer(unvalidatedValue: ["hp": 2])
                #expect(
                    await eventually {
                        let detail = try? await backend.getActivity(path: .init(activityId: "quest-1")).ok.body.json
                        return detail?.activity.lastContentState == shown && detail?.deliveries.count == 1
                    })
                let detail = try await backend.getActivity(path: .init(activityId: "quest-1")).ok.body.json
                #expect(detail.activity.activityId == "quest-1" && detail.activity.environment == .sandbox)
            }
        }
    }

    @Test func aRefusalDecodesAsTheContractsError() async throws {
        try await withSimulator { apns in
            try await withServer(over: apns) { server in
                let app = Client(serverURL: server.url, transport: URLSessionTransport(), middlewares: [BearerAuthentication(server.appKey)])
                let refused = try await app.registerActivity(
                    body: .json(
                        .init(
                            activityId: "quest-2", pushToken: "abzz", bundleId: apns.bundleID,
                            attributesType: apns.attributesTypes[0], environment: .sandbox)))
                let error = try refused.badRequest.body.json.error
                #expect(error.field == "pushToken")
                #expect(error.rule == "hex")
                #expect(!error.message.isEmpty)
            }
        }
    }
}

/// Sends `Authorization: Bearer <credential>` with every request, as the README's client does.
struct BearerAuthentication: ClientMiddleware {
    let credential: String

    init(_ credential: String) { self.credential = credential }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(credential)"
        return try await next(request, body, baseURL)
    }
}
