import APNsCore

/// Work the endpoint hands to the devices.
enum EndpointWorkItem: Sendable {
    /// A push that passed every APNs check: get the token verdict, then record the exchange with it.
    case deliver(ReceivedPush, PushExchange)
    /// A request answered before the devices (rejected or fault-injected): record it.
    case record(PushExchange)
}

extension DeviceWorld {
    /// The endpoint's hop to the devices: a batch of work in one actor turn. Returns one verdict per
    /// item (nil for `.record`).
    func process(_ items: [EndpointWorkItem]) -> [PushVerdict?] {
        var verdicts: [PushVerdict?] = []
        verdicts.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .deliver(let push, let exchange):
                verdicts.append(answer(push, exchange: exchange))
            case .record(let exchange):
                record(exchange)
                verdicts.append(nil)
            }
        }
        return verdicts
    }

    /// The token verdict, then the exchange recorded with the verdict's status and reason.
    func answer(_ push: ReceivedPush, exchange: PushExchange) -> PushVerdict {
        let verdict = deliver(push)
        var exchange = exchange
        switch verdict {
        case .accepted:
            exchange.status = 200
            exchange.reason = nil
        case .rejected(let reason, _):
            exchange.status = reason.status
            exchange.reason = reason
            exchange.apnsUniqueID = nil
        }
        record(exchange)
        return verdict
    }
}
