import Foundation
import HTTPTypes
import LivePushAPIClient
import LivePushTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Synchronization
import Testing

/// The generated client (`LivePushAPIClient`) against a real `livepush serve` over the simulator, through
/// URLSession as an app would: what the contract says is what the server answers.
@Suite struct APIClientTests {
    /// The generated client of `server` over URLSession, sending `credential` after `middlewares` (the
    /// contract check, a recorder of what is sent).
    static func client(_ server: TestServer, _ credential: String, after middlewares: [any ClientMiddleware] = []) -> Client {
        Client(serverURL: server.url, transport: URLSessionTransport(), middlewares: middlewares + [BearerAuthentication(credential)])
    }

    @Test func registerUpdateAndReadBack() async throws {
        try await withSimulatedServer { apns, server in
            let app = Self.client(server, server.appKey)
            let backend = Self.client(server, server.backendKey)
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
                body: .json(.init(contentState: ["hp": 2], priority: .init(value1: ._10))))
            #expect(try accepted.accepted.body.json.pushIds.count == 1)
            #expect(await eventually { (try? await apns.contentState(of: activity))?["hp"]?.numberValue == 2 })

            // Read back: the delivery is recorded once APNs answered, and the last state with it.
            let shown: Components.Schemas.ContentState = ["hp": 2]
            #expect(
                await eventually {
                    let detail = try? await backend.getActivity(path: .init(activityId: "quest-1")).ok.body.json
                    return detail?.activity.lastContentState == shown && detail?.deliveries.count == 1
                })
            let detail = try await backend.getActivity(path: .init(activityId: "quest-1")).ok.body.json
            #expect(detail.activity.activityId == "quest-1" && detail.activity.environment == .sandbox)
        }
    }

    @Test func aRefusalDecodesAsTheContractsError() async throws {
        try await withSimulatedServer { apns, server in
            let app = Self.client(server, server.appKey)
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

    /// With `RequestContractCheck`, a request the contract refuses is not sent: the call fails with the
    /// field and rule the server would answer, read from the same openapi.json.
    @Test func theContractCheckRefusesBeforeSending() async throws {
        try await withSimulatedServer { apns, server in
            let sent = Sent()
            let app = Self.client(server, server.appKey, after: [RequestContractCheck(), sent])
            func register(_ id: String, bundleID: String) async throws -> Operations.RegisterActivity.Output {
                try await app.registerActivity(
                    body: .json(
                        .init(
                            activityId: id, pushToken: String(repeating: "ab", count: 32), bundleId: bundleID,
                            attributesType: apns.attributesTypes[0], environment: .sandbox)))
            }
            do {
                _ = try await register("quest-3", bundleID: String(repeating: "b", count: 256))
                Issue.record("a 256-character bundleId was sent")
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? RequestRefusedByContract, "\(error)")
                #expect(refusal.field == "bundleId" && refusal.rule == "maxLength", "\(refusal)")
            }
            #expect(sent.count == 0, "nothing reached the transport")
            // At the limit it is sent, and the server agrees.
            _ = try await register("quest-3", bundleID: String(repeating: "b", count: 255)).created
            #expect(sent.count == 1)
            // A path parameter too: a control character in the id is refused before sending.
            let backend = Self.client(server, server.backendKey, after: [RequestContractCheck(), sent])
            await #expect(throws: ClientError.self) { _ = try await backend.getActivity(path: .init(activityId: "quest\u{7}3")) }
            #expect(sent.count == 1)
        }
    }

    /// A body over 64 KiB is checked and sent too: an audience start takes up to 10,000 user ids (the
    /// server's 2 MiB limit for it). One over 2 MiB is sent unchecked, and the server refuses it (413).
    @Test func anAudienceStartOverSixtyFourKibibytesIsCheckedAndSent() async throws {
        try await withSimulatedServer { apns, server in
            let sent = Sent()
            let backend = Self.client(server, server.backendKey, after: [RequestContractCheck(), sent])
            func start(_ userIDs: [String]) async throws -> Operations.StartForAudience.Output {
                try await backend.startForAudience(
                    body: .json(
                        .init(
                            userIds: userIDs, contentState: ["hp": 1],
                            alert: .init(value1: .init(title: .PlainText("Kick-off")), value2: nil, value3: nil),
                            attributesType: apns.attributesTypes[0], attributes: [:])))
            }
            // 600 ids of 120 characters: about 75 KB. (Few and long: each id is checked against the
            // contract's pattern on both sides, and a debug build's check of 10,000 of them would hold
            // a thread of the test process's small pool for seconds.)
            let fans = (0..<600).map { String(format: "fan-%0116d", $0) }
            let accepted = try await start(fans).accepted.body.json
            #expect(accepted.audience?.userCount == 600 && sent.count == 1, "\(accepted)")
            // Still checked: an id over 128 characters is refused before sending.
            do {
                _ = try await start(fans + [String(repeating: "x", count: 129)])
                Issue.record("an id of 129 characters was sent")
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? RequestRefusedByContract, "\(error)")
                #expect((refusal.field ?? "").contains("userIds"), "\(refusal)")
            }
            #expect(sent.count == 1)
            // Over 2 MiB: sent as it is, for the server's 413.
            let long = (0..<20_000).map { String(format: "%0120d", $0) }
            guard case .contentTooLarge = try await start(long) else {
                Issue.record("a body over 2 MiB was not answered 413")
                return
            }
            #expect(sent.count == 2)
        }
    }
}

/// Counts the requests that pass it.
final class Sent: ClientMiddleware, Sendable {
    private let requests = Mutex(0)

    var count: Int { requests.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        requests.withLock { $0 += 1 }
        return try await next(request, body, baseURL)
    }
}
