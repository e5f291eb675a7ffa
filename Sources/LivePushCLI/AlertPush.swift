import APNsCore
import ArgumentParser
import Foundation
import LiveActivity

/// What `livepush send` sends: a Live Activity push, or a plain alert to the app.
enum SendPushType: String, ExpressibleByArgument, CaseIterable {
    case liveactivity
    case alert
}

/// `livepush send --push-type alert`: a plain alert push (`--alert-title`, `--alert-body`, `--sound`) to
/// the bundle id, the kind of push a provider certificate may send.
enum AlertPush {
    /// The Live Activity flags among `content`, which an alert push does not carry.
    static func liveActivityFlags(in content: PayloadOptions) -> [String] {
        var flags: [String] = []
        if content.event != .update { flags.append("--event") }
        if content.contentState != nil { flags.append("--content-state") }
        if content.attributesType != nil { flags.append("--attributes-type") }
        if content.attributes != nil { flags.append("--attributes") }
        if content.titleLocKey != nil || !content.titleLocArgs.isEmpty { flags.append("--title-loc-key/--title-loc-arg") }
        if content.bodyLocKey != nil || !content.bodyLocArgs.isEmpty { flags.append("--body-loc-key/--body-loc-arg") }
        if content.staleDate != nil { flags.append("--stale-date") }
        if content.dismissalDate != nil { flags.append("--dismissal-date") }
        if content.relevanceScore != nil { flags.append("--relevance-score") }
        if content.timestamp != nil { flags.append("--timestamp") }
        if content.inputPushToken { flags.append("--input-push-token") }
        if content.inputPushChannel != nil { flags.append("--input-push-channel") }
        return flags
    }

    /// Refuses Live Activity flags and an alert without text.
    static func validate(_ content: PayloadOptions) throws {
        let flags = liveActivityFlags(in: content)
        if !flags.isEmpty {
            throw ValidationError(
                "\(flags.joined(separator: ", ")) \(flags.count == 1 ? "is" : "are") for Live Activity pushes, not --push-type alert")
        }
        if content.alertTitle == nil, content.alertBody == nil {
            throw ValidationError("--push-type alert needs --alert-title or --alert-body (or both)")
        }
    }

    /// `{"aps":{"alert":{"title":…,"body":…},"sound":…}}`.
    static func payload(_ content: PayloadOptions) -> Data {
        var alert: [String: JSONValue] = [:]
        if let title = content.alertTitle { alert["title"] = .string(title) }
        if let body = content.alertBody { alert["body"] = .string(body) }
        var aps: [String: JSONValue] = ["alert": .object(alert)]
        if let sound = content.sound { aps["sound"] = .string(sound) }
        return JSONValue.object(["aps": .object(aps)]).serialized()
    }

    /// The request: the bundle id is the topic.
    static func request(
        token: String, bundleID: String, content: PayloadOptions, priority: APNsPriority?,
        expiration: APNsExpiration, collapseID: String?, apnsID: UUID?
    ) throws -> APNsRequest {
        let deviceToken: DeviceToken
        do { deviceToken = try DeviceToken(hex: token) } catch { throw CommandFailure("--token: \(error.description)") }
        let headers: APNsRequestHeaders
        do {
            headers = try APNsRequestHeaders(
                pushType: .alert, topic: bundleID, priority: priority, expiration: expiration,
                collapseID: collapseID, apnsID: apnsID
            )
        } catch {
            throw CommandFailure(error.description)
        }
        let body = payload(content)
        guard body.count <= APNsPushType.alert.maximumPayloadSize else {
            throw CommandFailure("the alert payload is \(body.count) bytes; APNs accepts at most \(APNsPushType.alert.maximumPayloadSize)")
        }
        return APNsRequest(token: deviceToken, headers: headers, body: body)
    }
}
