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
