import APNsCore
import Foundation
import Testing

@testable import APNsSimulator

@Suite struct EndpointAcceptTests {
    @Test func acceptedPushHasAPNsShape() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                let generated = try await client.send(harness.request(), body: EndpointHarness.payload)
                #expect(generated.status == 200)
                #expect(generated.body.isEmpty)
                let id = try #require(generated["apns-id"])
                #expect(APNsID.parse(id, allowUppercase: true) != nil)
                #expect(id == id.uppercased())
                #expect(generated["apns-unique-id"] != nil)
                #expect(generated["content-type"] == nil)

                let mine = "5f1d1b9c-1a2b-4c3d-8e9f-0123456789ab"
                let echoed = try await client.send(harness.request(replacing: ["apns-id": mine]), body: EndpointHarness.payload)
                #expect(echoed.status == 200)
                #expect(echoed["apns-id"] == mine)
            }
        }
    }

    @Test func productionHasNoUniqueID() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                let answer = try await client.send(harness.request(authority: "api.push.apple.com"), body: EndpointHarness.payload)
                #expect(answer.status == 200)
                #expect(answer["apns-unique-id"] == nil)
            }
        }

        try await withEndpoint(configure: { $0.environment = .production }) { production in
            try await production.withConnection { second in
                let plain = try await second.send(production.request(), body: EndpointHarness.payload)
                #expect(plain.status == 200)
                #expect(plain["apns-unique-id"] == nil)
                let sandbox = try await second.send(production.request(authority: "api.sandbox.push.apple.com:443"), body: EndpointHarness.payload)
                #expect(sandbox["apns-unique-id"] != nil)
            }
        }
    }

    @Test func pushReachesTheDevicesAndTheLog() async throws {
        try await withEndpoint { harness in
            try await harness.withConnection { client in
                let answer = try await client.send(harness.request(), body: EndpointHarness.payload)
                #expect(answer.status == 200)
                let rejected = try await client.send(harness.request(replacing: ["apns-topic": nil]), body: EndpointHarness.payload)
                #expect(rejected.status == 400)
                var log: [PushLogEntry] = []
                for _ in 0..<200 {
                    log = await harness.world.pushes()
                    if log.count >= 2 { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(log.map(\.status).sorted() == [200, 400])
                let accepted = try #require(log.first { $0.status == 200 })
                #expect(accepted.token == EndpointHarness.token)
                #expect(accepted.headers.contains { $0.name == "authorization" && $0.value == "bearer …" })
            }
        }
    }
}
