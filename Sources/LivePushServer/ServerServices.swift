import APNsCore
import Logging
import PushStore

/// What the routes share.
struct ServerServices: Sendable {
    let store: any PushStore
    let configuration: ServerConfiguration
    let clock: any WallClock
    let logger: Logger
    let metrics: ServerMetrics
    let authenticator: Authenticator
    let acceptor: PushAcceptor
    let webhook: WebhookService
}
