import APNsCore

extension DeviceWorld {
    /// The endpoint's one hop to the devices per accepted-so-far push: the token verdict, then the
    /// exchange recorded with the verdict's status and reason.
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
