import Foundation
import LiveActivity
import LivePushAPIClient
import OpenAPIRuntime

/// Sends one ``Upload`` through the generated client, as the app's credential, and says what became of it.
struct APIUploader: Sendable {
    let serverURL: URL
    let transport: any ClientTransport
    let bundleID: String
    let environment: Components.Schemas.Environment

    /// The generated client acting as `bearer`. The contract check refuses, before sending, what the
    /// server would refuse with 400.
    func client(bearer: String) -> Client {
        Client(serverURL: serverURL, transport: transport, middlewares: [RequestContractCheck(), BearerAuthentication(bearer)])
    }

    /// `shapes`: each attributes type's ContentState shape, sent with the registrations of its activities.
    func send(_ upload: Upload, deviceID: String, bearer: String, shapes: [String: JSONValue] = [:]) async -> UploadOutcome {
        let api = client(bearer: bearer)
        do {
            switch upload {
            case .register(let id, let type, let groups, let token, let frequent, let key):
                let body = Components.Schemas.ActivityRegistration(
                    activityId: id, pushToken: token.hex, bundleId: bundleID, attributesType: type, environment: environment,
                    groups: groups.isEmpty ? nil : groups, frequentPushesEnabled: frequent,
                    contentStateShape: shapes[type].map { .init(value1: $0) },
                    liveActivityKey: key.map { .init(value1: $0) })
                return await Self.outcome(try await api.registerActivity(body: .json(body))) { _ = try $0.created }
            case .rotate(let id, let token):
                let answer = try await api.rotatePushToken(path: .init(activityId: id), body: .json(.init(pushToken: token.hex)))
                return await Self.outcome(answer) { _ = try $0.ok }
            case .end(let id, .ended(let dismissalDate)):
                let body = Components.Schemas.EndedByApp(dismissalDate: dismissalDate.map { .init(value1: .case2($0)) })
                return await Self.outcome(try await api.activityEnded(path: .init(activityId: id), body: .json(body))) { _ = try $0.ok }
            case .end(let id, .dismissed):
                return await Self.outcome(try await api.activityDismissed(path: .init(activityId: id))) { _ = try $0.ok }
            case .pushToStart(let type, let token, let source):
                let body = Components.Schemas.PushToStartToken(
                    deviceId: deviceID, bundleId: bundleID, attributesType: type, environment: environment, token: token.hex,
                    source: .init(value1: Components.Schemas.PushToStartSource(source)))
                return await Self.outcome(try await api.storePushToStartToken(body: .json(body))) { _ = try $0.ok }
            }
        } catch {
            return APIAnswer.thrown(error)
        }
    }
}

extension APIUploader {
    /// What became of an upload the server answered with `output`: what its refusal or undocumented status
    /// means (``APIAnswer/failure(_:)``), else stored when it is the operation's success (`stored` reads it,
    /// throwing for any other case).
    static func outcome<Output: Sendable>(_ output: Output, stored: (Output) throws -> Void) async -> UploadOutcome {
        if let failure = await APIAnswer.failure(output) { return failure }
        do {
            try stored(output)
            return .stored
        } catch {
            return .retry(reason: "a documented answer the upload does not expect: \(error)", retryAfter: nil)
        }
    }
}

extension Components.Schemas.PushToStartSource {
    /// The contract's spelling of where the app read a push-to-start token.
    init(_ source: PushToStartSource) {
        switch source {
        case .stream: self = .stream
        case .property: self = .property
        }
    }
}
