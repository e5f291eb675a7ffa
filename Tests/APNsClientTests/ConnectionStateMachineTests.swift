import APNsCore
import Testing

@testable import APNsClient

/// The connection's states and what each transition tells the connection to do, without a socket (the
/// integration suites drive the same transitions over the simulator: GOAWAY, closes, used-up stream ids).
@Suite struct ConnectionStateMachineTests {
    let goAway = ConnectionStateMachine.GoAway(lastStreamID: 7, reason: .shutdown)

    @Test func anOpenConnectionSendsAndAClosedOneRefuses() {
        var machine = ConnectionStateMachine()
        #expect(machine.newRequest(streamIDsLeft: true) == .send)
        machine.channelClosed()
        #expect(machine.newRequest(streamIDsLeft: true) == .refuse(.connectionClosed(processed: false, detail: "the connection is closed")))
        #expect(machine.failure(processed: true, streamID: 3, detail: "gone") == .connectionClosed(processed: true, detail: "gone"))
    }

    @Test func aGoAwayRefusesNewRequestsAndFailsTheUnsentAboveItsLastStream() {
        var machine = ConnectionStateMachine()
        #expect(machine.receivedGoAway(goAway) == .failUnsentRequests(above: 7))
        #expect(!machine.isOpen)
        #expect(machine.newRequest(streamIDsLeft: true) == .refuse(.goAway(reason: .shutdown, processed: false)))
        // A stream at or below the last id may have been processed; one above it was not.
        #expect(machine.failure(processed: true, streamID: 7, detail: "") == .goAway(reason: .shutdown, processed: true))
        #expect(machine.failure(processed: true, streamID: 9, detail: "") == .goAway(reason: .shutdown, processed: false))
        // A second GOAWAY lowers the last id and keeps the reason it does not repeat.
        #expect(machine.receivedGoAway(.init(lastStreamID: 3, reason: nil)) == .failUnsentRequests(above: 3))
        #expect(machine.goAway == .init(lastStreamID: 3, reason: .shutdown))
        // Closed, the connection keeps what the GOAWAY said for the requests it fails.
        machine.channelClosed()
        #expect(machine.receivedGoAway(goAway) == ConnectionStateMachine.GoAwayAction.none)
        #expect(machine.failure(processed: true, streamID: 5, detail: "") == .goAway(reason: .shutdown, processed: false))
    }

    @Test func usedUpStreamIDsCloseTheConnectionOnceNoAnswerIsAwaited() {
        var machine = ConnectionStateMachine()
        #expect(machine.requestEnded(awaiting: 0) == .none)
        #expect(
            machine.newRequest(streamIDsLeft: false)
                == .refuseAndCloseWhenIdle(.connectionClosed(processed: false, detail: "the connection used up its stream ids")))
        #expect(machine.requestEnded(awaiting: 2) == .none)
        #expect(machine.newRequest(streamIDsLeft: false) == .refuse(.connectionClosed(processed: false, detail: "the connection is going away")))
        // A GOAWAY meanwhile does not cancel the close.
        _ = machine.receivedGoAway(goAway)
        #expect(machine.requestEnded(awaiting: 0) == .close)
        machine.channelClosed()
        #expect(machine.requestEnded(awaiting: 0) == .none)
    }
}
