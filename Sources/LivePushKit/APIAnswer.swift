import Foundation
import LivePushAPIClient
import OpenAPIRuntime

/// Turns the generated client's answers into ``UploadOutcome``s: the documented refusals by status, an
/// undocumented one by its status class, a request the contract check refused before sending as a
/// refusal, and any other thrown error (no answer, or one the contract does not describe) as worth a retry.
enum APIAnswer {
    static func refused(_ status: Int, _ body: () throws -> Components.Schemas._Error) -> UploadOutcome {
        guard let error = try? body().error else {
            return .refused(status: status, field: nil, rule: "unknown", message: "a \(status) answer without the contract's error body")
        }
        return .refused(status: status, field: error.field, rule: error.rule, message: error.message)
    }

    static func unauthorized(_ body: () throws -> Components.Schemas._Error) -> UploadOutcome {
        .unauthorized(message: (try? body().error.message) ?? "401 without the contract's error body")
    }

    static func unknown(_ body: () throws -> Components.Schemas._Error) -> UploadOutcome {
        .unknownToServer(message: (try? body().error.message) ?? "404 without the contract's error body")
    }

    static func tooManyRequests(_ answer: Components.Responses.TooManyRequests) -> UploadOutcome {
        .retry(reason: "429 rate limited", retryAfter: answer.headers.retryAfter.map { .seconds(max($0, 1)) })
    }

    static func unavailable() -> UploadOutcome {
        .retry(reason: "503 unavailable", retryAfter: nil)
    }

    /// What the refusal or undocumented status an operation answered means for an upload; nil when
    /// `output` is neither (the operation's own answer).
    static func failure<Output: Sendable>(_ output: Output) async -> UploadOutcome? {
        switch OperationAnswer(output) {
        case .expected: nil
        case .error(let refusal as any DocumentedRefusal): refusal.outcome
        case .error(let error): documented(error)
        case .undocumented(let status, let payload): await undocumented(status, payload)
        }
    }

    /// A documented error without a ``DocumentedRefusal`` meaning: retried when the server's (5xx), else refused.
    static func documented(_ error: any APIErrorResponse) -> UploadOutcome {
        let status = type(of: error).status
        if status >= 500 { return .retry(reason: "\(status) from the server", retryAfter: nil) }
        return refused(status) { try error.errorBody }
    }

    /// A status the contract does not list for the route.
    static func undocumented(_ status: Int, _ payload: UndocumentedPayload) async -> UploadOutcome {
        if status >= 500 { return .retry(reason: "\(status) from the server", retryAfter: nil) }
        var data = Data()
        if let body = payload.body { data = (try? await Data(collecting: body, upTo: 64 * 1024)) ?? Data() }
        let error = try? JSONDecoder().decode(Components.Schemas._Error.self, from: data).error
        switch status {
        case 401: return .unauthorized(message: error?.message ?? "401")
        case 404: return .unknownToServer(message: error?.message ?? "404")
        case 400..<500:
            return .refused(
                status: status, field: error?.field, rule: error?.rule ?? "unknown",
                message: error?.message ?? String(decoding: data.prefix(300), as: UTF8.self))
        default: return .retry(reason: "unexpected status \(status)", retryAfter: nil)
        }
    }

    /// What a thrown error means: no answer at all (the network), or an answer the contract does not
    /// describe; both are tried again later.
    static func thrown(_ error: any Error) -> UploadOutcome {
        if let client = error as? ClientError, let refusal = client.underlyingError as? RequestRefusedByContract {
            // The contract check refused it before sending: the server would answer 400 with the same words.
            return .refused(status: 400, field: refusal.field, rule: refusal.rule, message: refusal.message)
        }
        if let client = error as? ClientError {
            if let response = client.response {
                return .retry(reason: "\(response.status.code) answer not as the contract says: \(client.underlyingError)", retryAfter: nil)
            }
            return .retry(reason: "network: \(client.underlyingError.localizedDescription)", retryAfter: nil)
        }
        return .retry(reason: "network: \(error.localizedDescription)", retryAfter: nil)
    }
}
