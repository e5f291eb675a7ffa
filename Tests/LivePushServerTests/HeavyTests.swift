import Foundation
import Testing

/// Tests that load both cores for a minute or more (10,000 of something, 1,000 simulated iPhones). Run among the others, they
/// starve the suite's timing-bound tests on a 2-core machine, so `swift test` skips them unless
/// `LIVEPUSH_HEAVY_TESTS=1`; `.ci/run` runs them apart, after the suite.
enum HeavyTests {
    static let variable = "LIVEPUSH_HEAVY_TESTS"
    static let isEnabled = ProcessInfo.processInfo.environment[variable] == "1"
    static let skipped: Comment = "a heavy test: set LIVEPUSH_HEAVY_TESTS=1 to run it (CI runs it apart, see .ci/run)"
}
