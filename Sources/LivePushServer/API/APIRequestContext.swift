import Foundation
import Hummingbird
import HummingbirdAuth
import NIOCore
import PushStore

/// Who a request acts for: the scope of its credential and the credential itself.
package struct Principal: Sendable, Hashable {
    package enum Credential: Sendable, Hashable {
        /// A development key given on the command line (`--app-key`, `--backend-key`).
        case developmentKey
        /// A stored API key (`livepush keys create`).
        case storedKey(UUID)
        /// An app token (user or installation) acting for `subject`, minted by the stored key `keyId` (nil:
        /// a development key).
        case appToken(AppToken.Kind, subject: String, keyID: UUID?)
    }

    package var scope: APIKeyScope
    package var credential: Credential
    /// The groups a user token grants (its `grp` claim); empty for every other credential.
    package var grantedGroups: [String] = []

    /// Which groups an app request may put activities in: any with a development key, those its user
    /// token grants, none with an installation token or an app key.
    package var groupGrant: GroupGrant {
        if case .developmentKey = credential { return .any }
        return .granted(grantedGroups)
    }

    /// The stored key's id; nil for development keys and app tokens.
    package var keyID: UUID? {
        if case .storedKey(let id) = credential { return id }
        return nil
    }

    /// Whom an app request acts for.
    package var appActor: AppActor {
        switch credential {
        case .developmentKey: return .anyUser
        case .storedKey: return .installer
        case .appToken(_, let subject, _): return .user(subject)
        }
    }

    /// The bucket of the rate limits and the key space of `Idempotency-Key`s: one per principal (a user or
    /// installation, a stored key, the development keys of a scope). Never contains a secret.
    package var name: String {
        switch credential {
        case .developmentKey: return "\(scope.rawValue):development"
        case .storedKey(let id): return "\(scope.rawValue):key:\(id.lowercased)"
        case .appToken(let kind, let subject, _): return "app:\(kind.rawValue):\(subject)"
        }
    }
}

/// The request context of the API: Hummingbird's core context, the principal the authentication
/// middleware of the route's audience found, and the client's address (failed requests are limited per
/// address).
package struct APIRequestContext: AuthRequestContext, RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package var identity: Principal?
    package let remoteAddress: SocketAddress?

    package init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress
    }
}

extension APIRequestContext {
    /// Whom an app route's request acts for (the authentication middleware set the principal).
    var actor: AppActor {
        get throws { try requireIdentity().appActor }
    }
}
