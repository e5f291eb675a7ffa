import Testing

@testable import PushStore

@Suite struct OperationTimersTests {
    @Test func eachOperationsTimerIsMadeOnce() {
        let timers = OperationTimers(backend: "sqlite")
        let read = timers.timer("activityToSend")
        #expect(timers.timer("activityToSend") === read)
        #expect(timers.timer("acceptGroup") !== read)
        #expect(read.label == "livepush_store_duration_seconds")
        #expect(read.dimensions.map { "\($0.0)=\($0.1)" } == ["backend=sqlite", "operation=activityToSend"])
    }
}
