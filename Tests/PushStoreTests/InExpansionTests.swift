import Testing

@testable import PushStore

/// `{IN}` in the store's SQL becomes one placeholder per value of the chunk.
@Suite struct InExpansionTests {
    @Test func eachMarkerBecomesThePlaceholdersAndTheRestIsKept() {
        #expect(SQLPushStore.expandingIn("DELETE FROM t WHERE id IN ({IN})", count: 3) == "DELETE FROM t WHERE id IN (?, ?, ?)")
        #expect(SQLPushStore.expandingIn("SELECT 1 WHERE a IN ({IN}) AND b = ?", count: 1) == "SELECT 1 WHERE a IN (?) AND b = ?")
        #expect(SQLPushStore.expandingIn("x IN ({IN}) OR y IN ({IN})", count: 2) == "x IN (?, ?) OR y IN (?, ?)")
        #expect(SQLPushStore.expandingIn("no marker {I} {IN", count: 4) == "no marker {I} {IN")
        #expect(SQLPushStore.expandingIn("{IN}", count: 0) == "")
        #expect(SQLPushStore.expandingIn("é {IN} ü", count: 2) == "é ?, ? ü", "UTF-8 around the marker is kept")
    }
}

/// The fixed row counts of multi-row statements and `IN` lists.
@Suite struct RowShapesTests {
    @Test func rowsSplitIntoFixedCountsLargestFirst() {
        #expect(RowShapes.pieces(500, largest: 1000) == [500])
        #expect(RowShapes.pieces(1000, largest: 1000) == [1000])
        #expect(RowShapes.pieces(1000, largest: 500) == [500, 500])
        #expect(RowShapes.pieces(737, largest: 1000) == [500, 128, 64, 32, 8, 4, 1])
        #expect(RowShapes.pieces(3, largest: 1000) == [2, 1])
        #expect(RowShapes.pieces(2_100, largest: 1000) == [1000, 1000, 64, 32, 4])
        #expect(RowShapes.pieces(700, largest: 300) == [256, 256, 128, 32, 16, 8, 4])
        #expect(RowShapes.pieces(0, largest: 1000).isEmpty)
        #expect(RowShapes.pieces(5, largest: 0) == [1, 1, 1, 1, 1])
        // Not fixed (PostgreSQL): chunks of the largest, then the rest.
        #expect(RowShapes.pieces(737, largest: 500, fixed: false) == [500, 237])
        #expect(RowShapes.pieces(40, largest: 1000, fixed: false) == [40])
        #expect(RowShapes.pieces(0, largest: 1000, fixed: false).isEmpty)
    }

    @Test func listsArePaddedToAFixedCountWithinTheirChunk() {
        #expect(RowShapes.padded(1, limit: 500) == 1)
        #expect(RowShapes.padded(3, limit: 500) == 4)
        #expect(RowShapes.padded(300, limit: 500) == 500)
        #expect(RowShapes.padded(500, limit: 500) == 500)
        #expect(RowShapes.padded(200, limit: 200) == 200, "no fixed count between 200 and its chunk of 200")
        #expect(RowShapes.padded(3_000, limit: 20_000) == 3_000)
        #expect(RowShapes.padded(0, limit: 500) == 0)
        #expect(RowShapes.padded(300, limit: 500, fixed: false) == 300)
    }
}
