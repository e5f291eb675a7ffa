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
            case .badRequest(let answer): return .failed(APIAnswer.refused(400) { try answer.body.json })
            case .unauthorized(let answer): return .failed(APIAnswer.unauthorized { try answer.body.json })
            case .forbidden(let answer): return .failed(APIAnswer.refused(403) { try answer.body.json })
            case .tooManyRequests(let answer): return .failed(APIAnswer.tooManyRequests(answer))
            case .contentTooLarge(let answer): return .failed(APIAnswer.refused(413) { try answer.body.json })
            case .serviceUnavailable: return .failed(APIAnswer.unavailable())
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
            case .badRequest(let answer): return .failed(APIAnswer.refused(400) { try answer.body.json })
            case .unauthorized(let answer): return .failed(APIAnswer.unauthorized { try answer.body.json })
            case .forbidden(let answer): return .failed(APIAnswer.refused(403) { try answer.body.json })
            case .notFound(let answer): return .failed(APIAnswer.unknown { try answer.body.json })
            case .tooManyRequests(let answer): return .failed(APIAnswer.tooManyRequests(answer))
            case .contentTooLarge(let answer): return .failed(APIAnswer.refused(413) { try answer.body.json })
            case .serviceUnavailable: return .failed(APIAnswer.unavailable())
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
