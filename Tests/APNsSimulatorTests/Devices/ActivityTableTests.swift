import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

@Suite struct ActivityTableTests {
    private func activity(_ id: String) -> SimulatedActivity {
        SimulatedActivity(
            id: id, deviceID: "device", bundleID: "com.example.app", attributesType: "T", attributes: [:],
            schema: ContentStateSchema(fields: [:]), startedAt: Date(timeIntervalSince1970: 0), contentState: [:],
            pushToken: nil, relevanceScore: 0, staleDate: nil, lastTimestamp: nil
        )
    }

    @Test func insertsReadsMutatesAndRemovesByID() {
        var table = ActivityTable()
        for id in ["a", "b", "c"] { table[id] = activity(id) }
        #expect(table.count == 3)
        table["b"]?.relevanceScore = 7
        #expect(table["b"]?.relevanceScore == 7)
        table["a"] = nil
        #expect(table["a"] == nil)
        #expect(table.count == 2)
        #expect(Set(table.keys) == ["b", "c"])
        #expect(table["c"]?.id == "c", "the last activity moved into the removed one's place keeps its id")
        table["b"]?.relevanceScore = 9
        #expect(table["b"]?.relevanceScore == 9)
        #expect(table["missing"]?.relevanceScore == nil)
        table["missing"]?.relevanceScore = 1
        #expect(table["missing"] == nil, "mutating an absent activity through optional chaining inserts nothing")
        table.reserveCapacity(1000)
        table["d"] = activity("d")
        #expect(table.count == 3)
    }
}
