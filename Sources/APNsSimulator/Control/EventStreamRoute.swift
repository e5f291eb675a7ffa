import Foundation
import Hummingbird
import LiveActivity

/// `GET /v1/events`: the event bus as Server-Sent Events (`event: <kind>` + `data: <json>`), with a
/// comment line as heartbeat every `heartbeat`.
struct EventStreamRoute: Sendable {
    let events: EventBus
    let heartbeat: Duration

    func add(to router: Router<BasicRequestContext>) {
        let (events, heartbeat) = (events, heartbeat)
        router.get("/v1/events") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            let body = ResponseBody { writer in
                let subscription = events.subscribe()
                let (chunks, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1024))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in subscription { sink.yield(Self.format(event)) }
                        sink.finish()
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: heartbeat)
                            sink.yield(": heartbeat\n\n")
                        }
                    }
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    for await chunk in chunks {
                        try await writer.write(ByteBuffer(string: chunk))
                    }
                    group.cancelAll()
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    /// One event in SSE framing; the data is one line of JSON.
    static func format(_ event: SimulatorEvent) -> String {
        let envelope: JSONValue = [
            "sequence": .number(Double(event.sequence)),
            "kind": .string(event.kind.rawValue),
            "at": SimulatorJSON.tree(event.at),
            "data": event.data,
        ]
        let json = String(decoding: envelope.serialized(), as: UTF8.self)
        return "id: \(event.sequence)\nevent: \(event.kind.rawValue)\ndata: \(json)\n\n"
    }
}
