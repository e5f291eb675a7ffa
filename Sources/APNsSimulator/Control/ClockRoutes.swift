import APNsCore
import Foundation
import Hummingbird
import LiveActivity

/// `GET /v1/clock` (the devices' time and its rate) and `POST /v1/clock` (`{"advanceSeconds": 3600}`
/// moves it forward, `{"rate": 600}` changes its pace; either or both). The dashboard follows the
/// clock, so a person watches activities go stale, end at 8 hours and leave at 12 in minutes.
struct ClockRoutes: Sendable {
    let world: DeviceWorld
    let clock: ScaledWallClock?

    struct Change: Decodable {
        var advanceSeconds: Double?
        var rate: Double?
    }

    func add(to router: Router<BasicRequestContext>) {
        let (world, clock) = (world, clock)
        router.get("/v1/clock") { _, _ -> Response in
            ControlResponse.json(Self.json(try Self.require(clock).reading()))
        }
        router.post("/v1/clock") { request, _ -> Response in
            let clock = try Self.require(clock)
            let change = try await ControlResponse.require(Change.self, from: request)
            let (rate, step) = try Self.check(change)
            if let rate { clock.setRate(rate) }
            if let step { clock.advance(by: step) }
            let reading = clock.reading()
            await world.clockChanged(reading)
            return ControlResponse.json(Self.json(reading))
        }
    }

    /// The checked change: each field is refused with its own rule, and an empty change is refused too.
    static func check(_ change: Change) throws -> (ClockRate?, ClockStep?) {
        guard change.advanceSeconds != nil || change.rate != nil else {
            throw ControlError(
                .badRequest, field: nil, "expected advanceSeconds (seconds to move forward), rate (simulated seconds per real second) or both")
        }
        var rate: ClockRate?
        var step: ClockStep?
        if let value = change.rate {
            do throws(ClockSettingError) {
                rate = try ClockRate(value)
            } catch {
                throw ControlError(.badRequest, field: "rate", error.description)
            }
        }
        if let seconds = change.advanceSeconds {
            do throws(ClockSettingError) {
                step = try ClockStep(seconds: seconds)
            } catch {
                throw ControlError(.badRequest, field: "advanceSeconds", error.description)
            }
        }
        return (rate, step)
    }

    static func require(_ clock: ScaledWallClock?) throws -> ScaledWallClock {
        guard let clock else {
            throw ControlError(.conflict, field: nil, "this simulator's clock cannot be read or set (its control server was made without one)")
        }
        return clock
    }

    /// `{"now": "…", "rate": 600}`.
    static func json(_ reading: ClockReading) -> JSONValue {
        .object(["now": SimulatorJSON.tree(reading.now), "rate": .number(reading.rate.value)])
    }
}
