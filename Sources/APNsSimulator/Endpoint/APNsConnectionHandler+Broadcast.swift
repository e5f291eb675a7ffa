import APNsCore
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2

/// The broadcast route of the APNs port and the channel management port (docs/apns-protocol.md §10):
/// `BroadcastRequestChecks`, then one hop to the channels, then an answer carrying `apns-request-id`
/// (never `apns-id`), as Apple's broadcast APIs answer.
extension APNsConnectionHandler {
    func processBroadcast(
        _ streamID: HTTP2StreamID, _ request: PendingRequest, _ fields: RequestHeaderFields, body: Data,
        exchange: PushExchange, environment: APNsEnvironment, goAway: GoAwayFault?
    ) {
        var exchange = exchange
        exchange.apnsID = Self.requestID(fields)
        let checked: (push: ReceivedBroadcast, verified: ConnectionAuthentication.Verified)
        do {
            checked = try shared.broadcastChecks.checkBroadcast(
                fields, body: body, requestID: exchange.apnsID, environment: environment, receivedAt: exchange.receivedAt,
                headers: exchange.headers, auth: &auth
            )
        } catch {
            reject(streamID, error, exchange: exchange, started: request.started, goAway: goAway)
            return
        }
        let world = shared.world
        let push = checked.push
        hop({ await world.broadcast(push) }) { verdict in
            switch verdict {
            case .accepted:
                self.accepted(checked.verified)
                let uniqueID = UUID().lowercased
                let fields = [("apns-request-id", exchange.apnsID), ("apns-unique-id", uniqueID)]
                var accepted = exchange
                accepted.apnsUniqueID = uniqueID
                self.respond(streamID, status: 200, fields: fields, body: nil, exchange: accepted, started: request.started, goAway: goAway)
            case .rejected(let reason, _):
                self.reject(streamID, Rejection(reason), exchange: exchange, started: request.started, goAway: goAway)
            }
        }
    }

    func processManagement(
        _ streamID: HTTP2StreamID, _ request: PendingRequest, _ fields: RequestHeaderFields, body: Data,
        exchange: PushExchange, environment: APNsEnvironment, goAway: GoAwayFault?
    ) {
        var exchange = exchange
        exchange.apnsID = Self.requestID(fields)
        let configuration = shared.configuration
        let checked: (bundleID: String, operation: BroadcastRequestChecks.ManagementOperation, verified: ConnectionAuthentication.Verified)
        do {
            checked = try shared.broadcastChecks.checkManagement(
                fields, body: body, environment: environment, receivedAt: exchange.receivedAt, auth: &auth)
        } catch {
            reject(streamID, error, exchange: exchange, started: request.started, goAway: goAway)
            return
        }
        let world = shared.world
        let (bundleID, operation) = (checked.bundleID, checked.operation)
        hop({ await world.manage(bundleID: bundleID, environment: environment, operation, configuration: configuration.broadcast) }) { answer in
            let requestIDField = ("apns-request-id", exchange.apnsID)
            let (status, extra, json): (Int, [(String, String)], String?)
            switch answer {
            case .rejected(let reason):
                self.reject(streamID, Rejection(reason), exchange: exchange, started: request.started, goAway: goAway)
                return
            case .created(let id):
                (status, extra, json) = (configuration.broadcast.createStatus, [("apns-channel-id", id)], nil)
            case .configuration(let policy):
                (status, extra, json) = (200, [], #"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#)
            case .deleted:
                (status, extra, json) = (204, [], nil)
            case .list(let ids):
                // Channel ids are base64: nothing in them needs escaping in JSON.
                (status, extra, json) = (200, [], #"{"channels":["# + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]}")
            }
            self.accepted(checked.verified)
            self.respond(
                streamID, status: status, fields: [requestIDField] + extra, body: json, exchange: exchange,
                started: request.started, goAway: goAway)
        }
    }

    /// `apns-request-id` as sent when it is one, else a new lowercase UUID.
    private static func requestID(_ fields: RequestHeaderFields) -> String {
        if let sent = fields.requestID, APNsID.parse(sent) != nil { return sent }
        return UUID().lowercased
    }

    /// Runs `work` on the devices and continues on the connection's event loop.
    private func hop<T: Sendable>(_ work: @escaping @Sendable () async -> T, then: @escaping (T) -> Void) {
        guard let context else { return }
        let promise = context.eventLoop.makePromise(of: T.self)
        promise.completeWithTask { await work() }
        promise.futureResult.assumeIsolated().whenSuccess { then($0) }
    }

    private func reject(_ streamID: HTTP2StreamID, _ rejection: Rejection, exchange: PushExchange, started: NIODeadline, goAway: GoAwayFault?) {
        let json = ErrorBodyJSON.encode(reason: rejection.reason, timestamp: nil)
        var exchange = exchange
        exchange.reason = APNsReason(rawValue: rejection.reason)
        respond(
            streamID, status: rejection.status, fields: [("apns-request-id", exchange.apnsID)], body: json,
            exchange: exchange, started: started, goAway: goAway)
    }

    /// Records the exchange in the push log, then writes the answer, counts it and finishes the stream
    /// (the log holds a request before its answer leaves).
    private func respond(
        _ streamID: HTTP2StreamID, status: Int, fields: [(String, String)], body: String?, exchange: PushExchange,
        started: NIODeadline, goAway: GoAwayFault?
    ) {
        var recorded = exchange
        recorded.status = status
        recorded.latencySeconds = Self.seconds(since: started)
        enqueue(.record(recorded)) { _ in
            self.unanswered.remove(streamID)
            if let context = self.context, !self.closed {
                var headers = HPACKHeaders()
                headers.add(name: ":status", value: String(status))
                if body != nil { headers.add(name: "content-type", value: "application/json") }
                for (name, value) in fields { headers.add(name: name, value: value) }
                let head = HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: body == nil)))
                context.write(self.wrapOutboundOut(head), promise: nil)
                if let body {
                    let buffer = context.channel.allocator.buffer(string: body)
                    let data = HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(buffer), endStream: true)))
                    context.write(self.wrapOutboundOut(data), promise: nil)
                }
                self.scheduleFlush()
            }
            self.shared.metrics.count(status: status, reason: recorded.reason?.rawValue)
            self.finished(goAway: goAway)
        }
    }
}
