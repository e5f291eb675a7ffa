import Foundation
import Hummingbird
import HummingbirdAuth
import PushStore

/// Who a request acts for: the scope of its API key, and the key's id when it is a stored key.
public struct Principal: Sendable, Hashable {
    public var scope: ApiKeyScope
    /// The stored key's id; nil for a development key given on the command line.
    public var keyId: UUID?
}

/// The request context of the API: Hummingbird's core context and the principal the authentication
/// middleware of the route's audience found.
public struct APIRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Principal?

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
    }
}
