import Foundation
import LivePushAPIClient

/// `POST /v1/installations` and its renewal: the installation credential's two requests.
extension APIUploader {
    enum InstallationAnswer: Sendable {
        case opened(StoredInstallation)
        case failed(UploadOutcome)
    }

    func openInstallation(appKey: String) async -> InstallationAnswer {
        do {
            let output = try await client(bearer: appKey).openInstallation(body: .json(.init()))
            if let failure = await APIAnswer.failure(output) { return .failed(failure) }
            return Self.stored(try output.created.body.json)
        } catch {
            return .failed(APIAnswer.thrown(error))
        }
    }

    /// Renews `installation` with its own token.
    func renew(_ installation: StoredInstallation) async -> InstallationAnswer {
        do {
            let api = client(bearer: installation.token)
            let output = try await api.renewInstallationToken(path: .init(installationId: installation.installationID), body: .json(.init()))
            if let failure = await APIAnswer.failure(output) { return .failed(failure) }
            return Self.stored(try output.created.body.json)
        } catch {
            return .failed(APIAnswer.thrown(error))
        }
    }

    private static func stored(_ installation: Components.Schemas.Installation) -> InstallationAnswer {
        .opened(StoredInstallation(installationID: installation.installationId, token: installation.token, expiresAt: installation.expiresAt))
    }
}
