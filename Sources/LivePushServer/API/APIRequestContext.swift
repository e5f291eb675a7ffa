import Foundation
import Hummingbird
import HummingbirdAuth
import PushStore

/// Who a request acts for: the scope of its API key, and the key's id when it is a stored key.
package struct Principal: Sendable, Hashable {
    package var scope: ApiKeyScope
    /// The stored key's id; nil for a development key given on the command line.
    package var keyId: UUID?
}

/// The request context of the API: Hummingbird's core context and the principal the authentication
/// middleware of the route's audience found.
package struct APIRequestContext: AuthRequestContext, RequestContext {
    package var coreContext: CoreRequestContextStorage
    package var identity: Principal?

    package init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
    }
}
