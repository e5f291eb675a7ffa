/// Where the domain reports what happened (the webhook, in the server).
protocol DomainEvents: Sendable {
    /// Reports an event; never blocks.
    func notify(_ event: WebhookEvent)
}
