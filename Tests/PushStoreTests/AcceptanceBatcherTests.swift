import Foundation
import Testing

@testable import PushStore

@Suite("AcceptanceBatcher: acceptances waiting together are written together")
struct AcceptanceBatcherTests {
    static func acceptance(_ activities: String...) -> Acceptance {
        Acceptance(at: Fixture.start, stateChanges: activities.map { .init(activityID: $0, timestamp: Fixture.start, contentState: nil) }) { _ in [] }
    }

    static func ids(_ entries: [AcceptanceBatcher.Entry]) -> [[String]] {
        entries.map { $0.acceptance.stateChanges.map(\.activityID) }
    }

    @Test func theFirstLeadsAndItsRoundTakesEveryoneWaitingWithDistinctActivities() async {
        let batcher = AcceptanceBatcher()
        let first = batcher.join(Self.acceptance("a"))
        let second = batcher.join(Self.acceptance("b", "c"))
        let third = batcher.join(Self.acceptance("a"))
        let fourth = batcher.join(Self.acceptance("d"))
        let fifth = batcher.join(Self.acceptance("c", "e"))
        #expect(first.round != nil, "nobody was waiting: the first leads")
        #expect(second.round == nil && third.round == nil && fourth.round == nil && fifth.round == nil)
        let round = try! #require(first.round)
        // The second "a" waits for the next batch, and "c, e" must not pass "b, c"... which is taken: it may
        // not share its batch, so it waits too.
        #expect(Self.ids(round.take()) == [["a"], ["b", "c"], ["d"]])
        #expect(Self.ids(round.take()) == [["a"], ["b", "c"], ["d"]], "a body run again writes the same batch")
        // The first left waiting leads the next batch; the other joins it.
        guard case .lead = await third.turn.answer() else {
            Issue.record("the first acceptance left waiting was not told to lead")
            return
        }
        let sixth = batcher.join(Self.acceptance("f"))
        #expect(sixth.round == nil, "a leader waits: the newcomer joins its batch")
        #expect(Self.ids(batcher.round().take()) == [["a"], ["c", "e"], ["f"]])
        #expect(batcher.join(Self.acceptance("g")).round != nil, "nobody waits any more: a newcomer leads")
    }

    @Test func aLaterAcceptanceNeverPassesAnEarlierOneOfItsActivity() {
        let batcher = AcceptanceBatcher()
        let leader = batcher.join(Self.acceptance("a", "b"))
        _ = batcher.join(Self.acceptance("b"))
        _ = batcher.join(Self.acceptance("c"))
        _ = batcher.join(Self.acceptance("b", "d"))
        _ = batcher.join(Self.acceptance("d"))
        #expect(Self.ids(leader.round!.take()) == [["a", "b"], ["c"]])
        #expect(Self.ids(batcher.round().take()) == [["b"]], "then the second b alone: the later b, d must follow it")
        #expect(Self.ids(batcher.round().take()) == [["b", "d"]])
        #expect(Self.ids(batcher.round().take()) == [["d"]])
    }

    @Test func aBatchTakesAtMostItsMaximum() {
        let batcher = AcceptanceBatcher(maximumBatch: 2)
        let leader = batcher.join(Self.acceptance("a"))
        for id in ["b", "c", "d"] { _ = batcher.join(Self.acceptance(id)) }
        #expect(Self.ids(leader.round!.take()) == [["a"], ["b"]])
        #expect(Self.ids(batcher.round().take()) == [["c"], ["d"]])
    }
}
