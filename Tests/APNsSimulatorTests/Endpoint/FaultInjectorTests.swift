import APNsCore
import Testing

@testable import APNsSimulator

@Suite struct FaultInjectorTests {
    @Test func validationErrors() {
        func refused(_ rule: FaultRule) -> FaultRuleError? {
            do {
                _ = try FaultInjector.validate(rule)
                return nil
            } catch { return error }
        }
        #expect(refused(FaultRule(status: 500, reason: "InternalServerError", share: 1.5)) == .shareOutOfRange(1.5))
        #expect(refused(FaultRule(status: 500, reason: "InternalServerError", share: -0.1)) == .shareOutOfRange(-0.1))
        #expect(refused(FaultRule(status: 500)) == .statusWithoutReason(500))
        #expect(refused(FaultRule(status: 200, reason: "Fine")) == .statusNotAnError(200))
        #expect(refused(FaultRule(reason: "SomethingNew")) == .reasonWithoutStatus("SomethingNew"))
        #expect(refused(FaultRule(status: 500, reason: "")) == .emptyReason)
        #expect(refused(FaultRule(latencyMilliseconds: -1)) == .negativeLatency(-1))
        #expect(refused(FaultRule(latencyMilliseconds: 600_001)) == .latencyTooLong(600_001))
        #expect(refused(FaultRule(goAwayAfterStreams: 0)) == .goAwayAfterNotPositive(0))
        #expect(refused(FaultRule(status: 503, reason: "Shutdown", resetConnection: true)) == .resetWithStatus)
        #expect(refused(FaultRule()) == .nothingToDo)
        if case .badToken = refused(FaultRule(latencyMilliseconds: 5, token: "xyz")) {} else { Issue.record("bad token accepted") }
    }

    @Test func normalizes() throws {
        let derived = try FaultInjector.validate(FaultRule(reason: "TooManyRequests", token: "ABCD"))
        #expect(derived.status == 429)
        #expect(derived.token == "abcd")
        let unknownReason = try FaultInjector.validate(FaultRule(status: 418, reason: "Teapot"))
        #expect(unknownReason.status == 418)
        let goAway = try FaultInjector.validate(FaultRule(reason: "IdleTimeout", goAwayAfterStreams: 3))
        #expect(goAway.status == nil)
    }

    @Test func addRemoveList() throws {
        let faults = FaultInjector(seed: 1)
        let a = try faults.add(FaultRule(latencyMilliseconds: 10))
        let b = try faults.add(FaultRule(resetConnection: true))
        #expect(faults.rules().map(\.id) == [a, b])
        #expect(faults.remove(id: a))
        #expect(!faults.remove(id: a))
        faults.removeAll()
        #expect(faults.rules().isEmpty)
        #expect(faults.decide(token: "ab").isNone)
    }

    @Test func decidesPerTokenAndCombines() throws {
        let faults = FaultInjector(seed: 7)
        try faults.add(FaultRule(status: 500, reason: "InternalServerError", token: "aa"))
        try faults.add(FaultRule(latencyMilliseconds: 20))
        try faults.add(FaultRule(latencyMilliseconds: 5, goAwayAfterStreams: 2))
        let forA = faults.decide(token: "aa")
        #expect(forA.response == FaultResponse(status: 500, reason: "InternalServerError"))
        #expect(forA.latencyMilliseconds == 25)
        #expect(forA.goAway == GoAwayFault(afterStreams: 2, reason: "Shutdown"))
        let forB = faults.decide(token: "bb")
        #expect(forB.response == nil)
        #expect(forB.latencyMilliseconds == 25)
    }

    @Test func shareIsReproducibleAndRoughlyRight() throws {
        func hits(seed: UInt64) throws -> [Bool] {
            let faults = FaultInjector(seed: seed)
            try faults.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 0.25))
            return (0..<2000).map { _ in faults.decide(token: nil).response != nil }
        }
        let first = try hits(seed: 42)
        #expect(first == (try hits(seed: 42)))
        let count = first.filter { $0 }.count
        #expect((400...600).contains(count))
        let none = FaultInjector(seed: 1)
        try none.add(FaultRule(status: 503, reason: "ServiceUnavailable", share: 0))
        #expect((0..<100).allSatisfy { _ in none.decide(token: nil).isNone })
    }
}
