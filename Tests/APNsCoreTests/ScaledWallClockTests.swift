import APNsCore
import Foundation
import Testing

/// The simulator's clock over a manual base clock: its pace, its moves forward, and the settings it refuses.
@Suite struct ScaledWallClockTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func runsAtItsRateFromTheBaseClocksTime() throws {
        let base = ManualWallClock(start)
        let clock = ScaledWallClock(rate: try ClockRate(600), base: base)
        #expect(clock.now() == start)
        base.advance(by: 6)
        #expect(clock.now() == start.addingTimeInterval(3600), "6 real seconds at 600 are an hour")
        let reading = clock.reading()
        #expect(reading.now == start.addingTimeInterval(3600))
        #expect(reading.rate == (try ClockRate(600)))
    }

    @Test func aNewRateKeepsTheTimeReached() throws {
        let base = ManualWallClock(start)
        let clock = ScaledWallClock(rate: try ClockRate(60), base: base)
        base.advance(by: 10)
        clock.setRate(.realTime)
        #expect(clock.now() == start.addingTimeInterval(600))
        base.advance(by: 10)
        #expect(clock.now() == start.addingTimeInterval(610))
    }

    @Test func advancesAtOnceAndKeepsRunning() throws {
        let base = ManualWallClock(start)
        let clock = ScaledWallClock(rate: try ClockRate(2), base: base)
        clock.advance(by: try ClockStep(seconds: 8 * 3600))
        #expect(clock.now() == start.addingTimeInterval(8 * 3600))
        base.advance(by: 5)
        #expect(clock.now() == start.addingTimeInterval(8 * 3600 + 10))
    }

    @Test func aBaseClockSetBackHoldsItStill() throws {
        let base = ManualWallClock(start)
        let clock = ScaledWallClock(rate: try ClockRate(10), base: base)
        base.advance(by: 3)
        base.set(start.addingTimeInterval(-100))
        #expect(clock.now() == start)
    }

    @Test(arguments: [0, -1, 86_401, Double.nan, Double.infinity] as [Double])
    func refusesARateOutsideItsRange(_ value: Double) {
        do {
            _ = try ClockRate(value)
            Issue.record("a rate of \(value) was accepted")
        } catch {
            #expect(error.description.contains("outside 0.001...86400"))
        }
    }

    @Test(arguments: [0, -60, 366.0 * 86_400 + 1, Double.nan] as [Double])
    func refusesAStepThatIsNotForwardOrTooFar(_ seconds: Double) {
        do {
            _ = try ClockStep(seconds: seconds)
            Issue.record("a step of \(seconds) s was accepted")
        } catch {
            #expect(error.description.contains("only moves forward"))
        }
    }
}
