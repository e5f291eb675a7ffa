import APNsAuth
import APNsCore
import Foundation
import Logging
import PushStore

/// Issues the credentials apps act with: user tokens the backend asks for, and installation tokens for
/// apps without accounts. The rules of what each may do are ``AppActor``'s.
final class IdentityService: Sendable {
    let key: AppTokenKey
    let configuration: ServerConfiguration
    let clock: any WallClock
    let logger: Logger

    /// The shortest and longest user-token lifetimes a backend may ask for.
    static let lifetimes: ClosedRange<TimeInterval> = 60...(7 * 86_400)

    init(key: AppTokenKey, configuration: ServerConfiguration, clock: any WallClock, logger: Logger) {
        self.key = key
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// A signed token acting for `userId` until `expiresAt` (`lifetime` seconds, else the configured default).
    func userToken(for userId: String, lifetime: TimeInterval?) async throws(DomainError) -> (token: String, expiresAt: Date) {
        let seconds = lifetime ?? configuration.appTokenLifetime
        guard Self.lifetimes.contains(seconds) else {
            throw .invalid("ttlSeconds", "range", "is \(Int(seconds)); a user token lives 60 to \(Int(Self.lifetimes.upperBound)) seconds (7 days)")
        }
        let now = Int64(clock.now().timeIntervalSince1970)
        let expires = now + Int64(seconds)
        let codec = try await stored { () async throws(PushStoreError) in try await key.codec() }
        let token = codec.sign(AppToken(subject: userId, kind: .user, issuedAt: now, expiresAt: expires))
        logger.debug("user token issued", metadata: ["userId": "\(userId)", "expiresAt": "\(expires)"])
        return (token, Date(timeIntervalSince1970: TimeInterval(expires)))
    }

    /// A new installation: a random id (`inst_` and 22 base64url characters) and a token that acts for it.
    /// Only app keys open installations (an app token already acts for someone).
    func openInstallation(as actor: AppActor) async throws(DomainError) -> (installationId: String, token: String) {
        if case .user = actor {
            throw .forbidden("Authorization", "appToken", "installations are opened with the app key; this credential already acts for one user or installation")
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let id = "inst_" + Base64URL.encode(bytes)
        let codec = try await stored { () async throws(PushStoreError) in try await key.codec() }
        let token = codec.sign(AppToken(subject: id, kind: .installation, issuedAt: Int64(clock.now().timeIntervalSince1970), expiresAt: nil))
        logger.info("installation opened", metadata: ["installationId": "\(id)"])
        return (id, token)
    }
}
