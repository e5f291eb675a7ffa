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
            switch try await client(bearer: appKey).openInstallation(body: .json(.init())) {
            case .created(let answer): return Self.stored(try answer.body.json)
            case .badRequest(let refusal as any DocumentedRefusal), .unauthorized(let refusal as any DocumentedRefusal),
                .forbidden(let refusal as any DocumentedRefusal), .tooManyRequests(let refusal as any DocumentedRefusal),
                .contentTooLarge(let refusal as any DocumentedRefusal), .serviceUnavailable(let refusal as any DocumentedRefusal):
                return .failed(refusal.outcome)
            case .undocumented(let status, let payload): return .failed(await APIAnswer.undocumented(status, payload))
            }
        } catch {
            return .failed(APIAnswer.thrown(error))
        }
    }

    /// Renews `installation` with its own token.
    func renew(_ installation: StoredInstallation) async -> InstallationAnswer {
        do {
            let api = client(bearer: installation.token)
            switch try await api.renewInstallationToken(path: .init(installationId: installation.installationID), body: .json(.init())) {
            case .created(let answer): return Self.stored(try answer.body.json)
            case .badRequest(let refusal as any DocumentedRefusal), .unauthorized(let refusal as any DocumentedRefusal),
                .forbidden(let refusal as any DocumentedRefusal), .notFound(let refusal as any DocumentedRefusal),
                .tooManyRequests(let refusal as any DocumentedRefusal), .contentTooLarge(let refusal as any DocumentedRefusal),
                .serviceUnavailable(let refusal as any DocumentedRefusal):
                return .failed(refusal.outcome)
            case .undocumented(let status, let payload): return .failed(await APIAnswer.undocumented(status, payload))
            }
        } catch {
            return .failed(APIAnswer.thrown(error))
        }
    }

    private static func stored(_ installation: Components.Schemas.Installation) -> InstallationAnswer {
        .opened(StoredInstallation(installationID: installation.installationId, token: installation.token, expiresAt: installation.expiresAt))
    }
}
