import APNsCore
import Foundation
import LiveActivity
import Logging
import PushStore
import Testing

@testable import LivePushServer

/// The webhook's intake: the journal turns store facts into the events' JSON (the format the webhook has
/// always received), there is none without a webhook, and a committed change wakes the webhook.
@Suite struct WebhookQueueTests {
    private static let at = Date(timeIntervalSince1970: 1_777_636_800)

    private func queue(enabled: Bool = true, signal: OutboxSignal = OutboxSignal(itemsPerWorker: 8)) -> WebhookQueue {
        var logger = Logger(label: "livepush.webhook.test")
        logger.logLevel = .critical
        return WebhookQueue(isEnabled: enabled, clock: SystemWallClock(), logger: logger, signal: signal)
    }

    private func ended(_ count: Int) -> [WebhookEvent] {
        (0..<count).map { .activityEnded("a\($0)", userID: "u\($0)", cause: .backend, at: Self.at) }
    }

    @Test func aGroupEndsFactsBecomeOneRowEach() throws {
        let facts = (0..<10_000).map { WebhookFact.activityEnded(activityID: "a\($0)", userID: "u\($0)", at: Self.at) }
        let rows = try #require(queue().journal(endCause: .backend)).deliveries(for: facts)
        #expect(rows.count == 10_000)
        let first = try #require(rows.first)
        #expect(first.event == "activity.ended" && first.attempts == 0)
        let json = try JSONValue.parse(first.body)
        #expect(json["activityId"]?.stringValue == "a0" && json["reason"]?.stringValue == "backend")
        #expect(json["at"]?.stringValue == "2026-05-01T12:00:00Z")
        #expect(Set(rows.map(\.id)).count == 10_000, "each event has its own id")
    }

    /// The bodies are byte for byte those the server wrote before events moved into the store's transactions.
    @Test func theEventsJSONIsUnchanged() throws {
        let token = try DeviceToken(hex: String(repeating: "ab", count: 32))
        let tokenID = UUID()
        let encoder = APIResponse.encoder()
        let cases: [(WebhookFact, WebhookEvent.EndCause?, WebhookEvent)] = [
            (.activityEnded(activityID: "a1", userID: "u1", at: Self.at), .app, .activityEnded("a1", userID: "u1", cause: .app, at: Self.at)),
            (
                .activityEnded(activityID: "a2", userID: nil, at: Self.at), .maximumDuration,
                .activityEnded("a2", userID: nil, cause: .maximumDuration, at: Self.at)
            ),
            (
                .activityTokenInvalid(activityID: "a3", userID: "u3", token: token, reason: "BadDeviceToken", at: Self.at), nil,
                WebhookEvent(event: .tokenInvalid, activityID: "a3", userID: "u3", reason: "BadDeviceToken", token: token.shortened, at: Self.at)
            ),
            (
                .pushToStartTokenInvalid(tokenID: tokenID, userID: "u4", token: token, reason: "Unregistered", at: Self.at), nil,
                WebhookEvent(
                    event: .tokenInvalid, pushToStartTokenID: tokenID.uuidString.lowercased(), userID: "u4", reason: "Unregistered",
                    token: token.shortened, at: Self.at)
            ),
        ]
        for (fact, cause, expected) in cases {
            let journal = try #require(cause.map { queue().journal(endCause: $0) } ?? queue().tokenJournal)
            let row = try #require(journal.deliveries(for: [fact]).first)
            #expect(row.event == expected.event.rawValue)
            #expect(row.body == (try encoder.encode(expected)), "\(String(decoding: row.body, as: UTF8.self))")
        }
        #expect(
            queue().tokenJournal?.deliveries(for: [.activityEnded(activityID: "a", userID: nil, at: Self.at)]).isEmpty == true,
            "an end needs its cause")
    }

    @Test func withoutAWebhookThereIsNoJournalAndNobodyIsWoken() {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let before = signal.generation
        let quiet = queue(enabled: false, signal: signal)
        #expect(quiet.journal(endCause: .backend) == nil && quiet.tokenJournal == nil)
        quiet.committed(3)
        #expect(signal.generation == before)
    }

    @Test func aCommittedChangeWakesTheWebhook() {
        let signal = OutboxSignal(itemsPerWorker: 8)
        let before = signal.generation
        queue(signal: signal).committed(0)
        #expect(signal.generation == before, "nothing stored, nobody woken")
        queue(signal: signal).committed(2)
        #expect(signal.generation != before)
    }

    @Test func logLinesNameTheFirstTenIDs() {
        let metadata = WebhookQueue.describe(ended(12), error: PushStoreError.unavailable(detail: "down"))
        #expect(metadata["event"] == "activity.ended" && metadata["count"] == "12")
        #expect(metadata["ids"]?.description.hasSuffix("a9 and 2 more") == true, "\(metadata)")
    }
}
