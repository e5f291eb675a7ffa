import Foundation

/// The credential every request carries: the app's user token (asked again after a 401), or the
/// installation opened once and renewed before it expires.
extension LivePushReporter {
    func credential() async throws(LivePushKitError) -> String {
        switch configuration.credential {
        case .userToken(let provide):
            if let current = userToken, !current.refused { return current.token }
            let renew = userToken?.refused ?? false
            do {
                let token = try await provide(renew)
                userToken = (token, false)
                return token
            } catch {
                throw .credential(message: "the app's user-token closure failed: \(error)")
            }
        case .installation(let appKey):
            return try await installationToken(appKey: appKey)
        }
    }

    /// The server answered 401 to the credential in use.
    func credentialRefused() {
        switch configuration.credential {
        case .userToken: if let current = userToken { userToken = (current.token, true) }
        case .installation: installationRefused = true
        }
    }

    private func installationToken(appKey: String) async throws(LivePushKitError) -> String {
        if let installation = state.installation {
            let renewBy = installation.expiresAt.addingTimeInterval(-configuration.installationRenewalMargin)
            guard installationRefused || Date() >= renewBy else { return installation.token }
            switch await uploader.renew(installation) {
            case .opened(let renewed):
                keep(renewed, event: "installation renewed")
                return renewed.token
            case .failed(.unauthorized), .failed(.unknownToServer), .failed(.refused):
                // Withdrawn (sign-out, a revoked app key) or expired: only a new installation helps.
                logger.warning("installation refused; opening a new one", metadata: ["installationId": "\(installation.installationID)"])
                state.installation = nil
            case .failed(let outcome):
                // Not renewed this time; the token still works until it expires.
                if !installationRefused && Date() < installation.expiresAt { return installation.token }
                throw .credential(message: "the installation could not be renewed: \(outcome)")
            }
        }
        switch await uploader.openInstallation(appKey: appKey) {
        case .opened(let opened):
            keep(opened, event: "installation opened")
            return opened.token
        case .failed(let outcome):
            throw .credential(message: "POST /v1/installations failed: \(outcome)")
        }
    }

    private func keep(_ installation: StoredInstallation, event: String) {
        state.installation = installation
        installationRefused = false
        logger.info(
            "\(event)", metadata: ["installationId": "\(installation.installationID)", "expiresAt": "\(installation.expiresAt)"])
        commit()
    }
}
