/// Where the domain reports what happened (the webhook's durable queue, in the server).
protocol DomainEvents: Sendable {
    /// Reports the events of one operation, stored together (a group end's 100,000 in one write). Called
    /// once the change they describe is committed, so it never fails the caller: a failure is logged.
    func notify(_ events: [WebhookEvent]) async
}

extension DomainEvents {
    /// Reports one event.
    func notify(_ event: WebhookEvent) async {
        await notify([event])
    }
}
