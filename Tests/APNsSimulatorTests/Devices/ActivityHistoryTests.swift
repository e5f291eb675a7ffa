import Foundation
import Testing

@testable import APNsSimulator

@Suite("ActivityHistory")
struct ActivityHistoryTests {
    private func entry(_ number: Int) -> HistoryEntry {
        HistoryEntry(
            request: PushRequestRecord(
                apnsID: "push-\(number)", receivedAt: Date(timeIntervalSince1970: Double(number)), token: "t", priority: 5, headers: [],
                payload: .object([:]), status: 200, reason: nil, channelID: nil),
            outcome: DeviceOutcome(.applied))
    }

    private func ids(_ history: ActivityHistory) -> [String] { history.entries.map(\.request.apnsID) }

    @Test
    func entriesStayInOrderAndTheOldestGoBeyondTheLimit() {
        var history = ActivityHistory()
        #expect(history.count == 0 && ids(history).isEmpty)
        history.append(entry(1), limit: 3)
        #expect(ids(history) == ["push-1"])
        for number in 2...5 { history.append(entry(number), limit: 3) }
        #expect(ids(history) == ["push-3", "push-4", "push-5"])
        #expect(history.count == 3 && history.last?.request.apnsID == "push-5")
    }

    @Test
    func aLimitOfOneKeepsTheNewestAndZeroKeepsNone() {
        var one = ActivityHistory()
        for number in 1...3 { one.append(entry(number), limit: 1) }
        #expect(ids(one) == ["push-3"])
        var none = ActivityHistory()
        none.append(entry(1), limit: 0)
        #expect(none.count == 0)
    }

    /// A broadcast's subscribers share the entry: each history holds the same instance.
    @Test
    func theEntryIsSharedNotCopied() {
        let shared = entry(1)
        var first = ActivityHistory()
        var second = ActivityHistory()
        first.append(shared, limit: 10)
        second.append(shared, limit: 10)
        #expect(first.entries[0] === second.entries[0])
    }
}
