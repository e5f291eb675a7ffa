import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct EventBusTests {
    private func event(_ sequence: Int) -> SimulatorEvent {
        SimulatorEvent(sequence: sequence, kind: .pushExchange, at: Date(timeIntervalSince1970: 0), data: [:])
    }

    @Test func everySubscriberReceivesEachEvent() async {
        let bus = EventBus(bufferSize: 8)
        let first = bus.subscribe()
        let second = bus.subscribe()
        #expect(bus.subscriberCount == 2)
        bus.publish(event(1))
        var firstIterator = first.makeAsyncIterator()
        var secondIterator = second.makeAsyncIterator()
        #expect(await firstIterator.next()?.sequence == 1)
        #expect(await secondIterator.next()?.sequence == 1)
    }

    @Test func closeEndsEveryStreamNowAndLater() async {
        let bus = EventBus(bufferSize: 8)
        let open = bus.subscribe()
        bus.publish(event(1))
        bus.close()
        var iterator = open.makeAsyncIterator()
        #expect(await iterator.next()?.sequence == 1, "what was published before still arrives")
        #expect(await iterator.next() == nil, "then the stream ends")
        #expect(bus.subscriberCount == 0)
        var late = bus.subscribe().makeAsyncIterator()
        bus.publish(event(2))
        #expect(await late.next() == nil, "a stream asked for after close is already over")
    }

    @Test func slowSubscriberLosesTheOldestEvents() async {
        let bus = EventBus(bufferSize: 3)
        let stream = bus.subscribe()
        for sequence in 1...10 { bus.publish(event(sequence)) }
        var iterator = stream.makeAsyncIterator()
        var received: [Int] = []
        for _ in 0..<3 { if let next = await iterator.next() { received.append(next.sequence) } }
        #expect(received == [8, 9, 10])
    }

    @Test func worldPublishesActivityChanges() async throws {
        let fixture = try await DeviceWorldFixture()
        let stream = fixture.world.events.subscribe()
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.end(fixture.now, dismissal: fixture.now - 1)))
        var iterator = stream.makeAsyncIterator()
        var kinds: [SimulatorEvent.Kind] = []
        for _ in 0..<3 { if let next = await iterator.next() { kinds.append(next.kind) } }
        #expect(kinds == [.activityUpdated, .activityEnded, .activityDismissed])
    }
}
