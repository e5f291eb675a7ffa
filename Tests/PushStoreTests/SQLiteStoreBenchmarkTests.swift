import Foundation
import LiveActivity
import LivePushTesting
import Testing

@testable import PushStore

/// The cost of the two store calls a single update makes most, on SQLite: the acceptance of one update
/// (one durable transaction) and a read of one activity by id. Measured, not checked: it runs only when
/// `LIVEPUSH_STORE_BENCH` gives the number of calls, and prints µs per call (wall clock, and the
/// process's CPU time, which leaves out the fsync's wait). BENCHMARKS.md has figures and the command.
@Suite("SQLite store: µs per call", .exclusive)
struct SQLiteStoreBenchmarkTests {
    static let calls = Int(ProcessInfo.processInfo.environment["LIVEPUSH_STORE_BENCH"] ?? "") ?? 0

    @Test(.enabled(if: calls > 0, "set LIVEPUSH_STORE_BENCH to the number of calls to measure"))
    func acceptAndReadByID() async throws {
        try await withStore(.sqlite) { store, _ in
            for id in ["a", "b"] { _ = try await store.register(Fixture.registration(id)) }
            let accept = try await Self.measure(Self.calls) { index in
                let t = Fixture.start + Double(index)
                let acceptance = Acceptance(
                    at: t, stateChanges: [.init(activityID: "a", timestamp: t, contentState: ["score": .number(Double(index))])]
                ) {
                    _ in [Fixture.update("a", score: index, at: t)]
                }
                _ = try await store.accept(acceptance)
            }
            let read = try await Self.measure(Self.calls) { _ in
                _ = try await store.activity(id: "b")
            }
            print("store bench, \(Self.calls) calls each: accept one update \(accept); read an activity by id \(read)")
        }
    }

    /// "W µs wall, C µs CPU per call".
    private static func measure(_ calls: Int, _ body: (Int) async throws -> Void) async throws -> String {
        let clock = ContinuousClock()
        let cpuBefore = cpuSeconds()
        let start = clock.now
        for index in 0..<calls { try await body(index) }
        let wall = clock.now - start
        let cpu = cpuSeconds() - cpuBefore
        let wallMicros = Double(wall.components.seconds) * 1e6 + Double(wall.components.attoseconds) / 1e12
        return String(format: "%.1f µs wall, %.1f µs CPU per call", wallMicros / Double(calls), cpu * 1e6 / Double(calls))
    }

    /// The CPU time of the process (every thread, user and system).
    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
