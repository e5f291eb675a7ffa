import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LivePushServer
import LivePushTesting
import Synchronization
import Testing

/// The outbox owns back-off: the server's APNs client sends each outbox attempt once (re-sending at once
/// only on a new connection), so attempts never compound.
@Suite struct RetryOwnershipTests {
    @Test func theServersClientOnlyReconnects() {
        var configuration = ServerConfiguration()
        configuration.apnsConnections = 6
        let client = configuration.apnsClientConfiguration(endpoint: .apple(.sandbox), additionalTrustRootFile: "/ca.pem")
        #expect(client.maximumConnections == 6 && client.additionalTrustRootFile == "/ca.pem")
        #expect(client.retry == .reconnectOnly(maximumAttempts: 3))
        let now = Date()
        for reason in [APNsReason.serviceUnavailable, .tooManyRequests, .internalServerError] {
            let answer = APNsRetryPolicy.AttemptResult.answered(APNsResponse(status: reason.status, reason: reason))
            #expect(
                client.retry.decide(after: answer, attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0) == .stop,
                "\(reason): one attempt, the outbox backs off")
        }
        let lost = APNsRetryPolicy.AttemptResult.failed(.goAway(reason: .shutdown, processed: false))
        #expect(
            client.retry.decide(after: lost, attempt: 1, tokenRenewed: false, now: now, deadline: nil, random: 0)
                == .retry(after: 0, newConnection: true))
    }

    @Test func outboxBackOffDoublesPerSendUpToTheMaximumWithJitter() {
        var configuration = ServerConfiguration()
        configuration.retryBaseDelay = 1
        configuration.retryMaximumDelay = 8
        #expect(configuration.outboxRetryDelay(afterAttempts: 1, random: 0) == 1)
        #expect(configuration.outboxRetryDelay(afterAttempts: 3, random: 0) == 4)
        #expect(configuration.outboxRetryDelay(afterAttempts: 9, random: 0) == 8)
        #expect(configuration.outboxRetryDelay(afterAttempts: 3, random: 1) == 2, "jitter takes off at most half")
    }

    @Test func webhookBackOffHasItsOwnBaseAndMaximum() {
        var configuration = ServerConfiguration()
        configuration.retryBaseDelay = 100
        configuration.webhookRetryBaseDelay = 1
        configuration.webhookRetryMaximumDelay = 300
        #expect(configuration.webhookRetryDelay(afterAttempts: 1, random: 0) == 1)
        #expect(configuration.webhookRetryDelay(afterAttempts: 4, random: 0) == 8)
        #expect(configuration.webhookRetryDelay(afterAttempts: 12, random: 0) == 300, "doubling stops at the maximum")
        #expect(configuration.webhookRetryDelay(afterAttempts: 1_000, random: 0) == 300, "no overflow after many failures")
        #expect(configuration.webhookRetryDelay(afterAttempts: 4, random: 1) == 4, "jitter takes off at most half")
        #expect(configuration.webhookRetryDelay(afterAttempts: 4, random: 7) == 4, "random is clamped to 0...1")
        #expect(configuration.webhookRetryDelay(afterAttempts: 0, random: 0) == 1, "no attempt yet waits the base")
    }

    @Test(arguments: TestDatabase.available)
    func a503IsOneAPNsRequestPerOutboxAttempt(database: TestStore) async throws {
        try await withSimulator { sim in
            let created = try await sim.startActivity(name: "busy")
            let fault = try sim.simulator.faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 1, token: created.pushToken))
            try await sim.withClient(sim.serverClientConfiguration) { client in
                let sender = CountingSender(client: client)
                try await withServer(ServerOptions(store: database, sender: sender)) { server in
                    let registered = try await server.http.post(
                        "/v1/activities", key: TestServer.appKey,
                        registrationJSON(activityID: created.id, token: created.pushToken))
                    #expect(registered.status == 201, "\(registered.text)")
                    let update = try await server.http.post(
                        "/v1/activities/\(created.id)/update", key: TestServer.backendKey,
                        #"{"contentState":{"hp":3},"priority":10}"#)
                    #expect(update.status == 202)
                    // Three outbox attempts meet the 503; then APNs recovers.
                    #expect(await eventually { sender.calls >= 3 })
                    _ = sim.simulator.faults.remove(id: fault)
                    #expect(try await eventually { try await server.store.outboxDepth() == 0 })

                    let requests = await sim.simulator.world.pushes(limit: 100).filter { $0.token == created.pushToken }
                    let record = try #require(try await server.store.deliveries(activityID: created.id, limit: 1).first)
                    #expect(record.outcome == .accepted)
                    #expect(requests.count == sender.calls, "one APNs request per outbox attempt: \(requests.map(\.status))")
                    #expect(record.attempts == sender.calls, "the outbox's attempts count sends")
                    #expect(requests.dropLast().allSatisfy { $0.status == 503 } && requests.last?.status == 200)
                    #expect(requests.count >= 3, "at least two outbox attempts met the 503")
                }
            }
        }
    }
}

/// The real client, counting the outbox's delivery calls: one per outbox attempt.
final class CountingSender: PushSending {
    let client: APNsClient
    private let count = Mutex(0)

    init(client: APNsClient) { self.client = client }

    var calls: Int { count.withLock { $0 } }

    func deliver(_ request: APNsRequest) async -> APNsDeliveryOutcome {
        count.withLock { $0 += 1 }
        return await client.deliver(request)
    }
}
