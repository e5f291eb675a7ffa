import ArgumentParser
import Foundation
import LiveActivity

/// The Live Activity payload, from flags.
struct PayloadOptions: ParsableArguments {
    @Option(help: "start, update or end.")
    var event: LiveActivityEvent = .update
    @Option(
        name: .customLong("content-state"),
        help: "The ContentState as JSON, or @FILE. Required for start and update; an end without it leaves the activity showing its last state.")
    var contentState: String?
    @Option(
        name: .customLong("content-state-shape"),
        help: ArgumentHelp(
            "A JSON Schema file of the app's ContentState (as livepush serve takes it): --content-state is checked against it as the device's JSONDecoder would read it, and nothing is sent when it would not decode.",
            valueName: "FILE"))
    var contentStateShape: String?
    @Option(name: .customLong("attributes-type"), help: "start: the ActivityAttributes type name.")
    var attributesType: String?
    @Option(help: "start: the attributes as JSON, or @FILE.")
    var attributes: String?
    @Option(name: .customLong("alert-title"), help: "Alert title (plain text).")
    var alertTitle: String?
    @Option(name: .customLong("alert-body"), help: "Alert body (plain text).")
    var alertBody: String?
    @Option(name: .customLong("title-loc-key"), help: "Alert title as a localization key.")
    var titleLocKey: String?
    @Option(name: .customLong("title-loc-arg"), help: "An argument of --title-loc-key (repeatable).")
    var titleLocArgs: [String] = []
    @Option(name: .customLong("body-loc-key"), help: "Alert body as a localization key.")
    var bodyLocKey: String?
    @Option(name: .customLong("body-loc-arg"), help: "An argument of --body-loc-key (repeatable).")
    var bodyLocArgs: [String] = []
    @Option(help: "Alert sound: a file in the app bundle, or default.")
    var sound: String?
    @Option(name: .customLong("stale-date"), help: "When the activity turns stale.")
    var staleDate: String?
    @Option(name: .customLong("dismissal-date"), help: "end: when the ended activity leaves the Lock Screen.")
    var dismissalDate: String?
    @Option(name: .customLong("relevance-score"), help: "Orders the app's activities (any number).")
    var relevanceScore: Double?
    @Option(help: "aps.timestamp (default: now).")
    var timestamp: String?
    @Flag(name: .customLong("input-push-token"), help: "start (iOS 18): ask for the new activity's update token.")
    var inputPushToken = false
    @Option(name: .customLong("input-push-channel"), help: "start (iOS 18): subscribe the new activity to this broadcast channel id.")
    var inputPushChannel: String?

    func makePayload(now: Date) throws -> LiveActivityPayload {
        if contentState == nil, event != .end {
            throw CommandFailure(
                "--content-state is required for --event \(event): the ContentState as JSON or @FILE (only --event end may leave it out, keeping the activity's last state)"
            )
        }
        let state = try contentState.map { try Self.json($0, flag: "--content-state") }
        let attributesValue = try attributes.map { try Self.json($0, flag: "--attributes") }
        let payload = LiveActivityPayload(
            event: event,
            timestamp: try date(timestamp, flag: "--timestamp", now: now) ?? now,
            contentState: state,
            staleDate: try date(staleDate, flag: "--stale-date", now: now),
            dismissalDate: try date(dismissalDate, flag: "--dismissal-date", now: now),
            relevanceScore: relevanceScore,
            alert: try alert(),
            attributesType: attributesType,
            attributes: attributesValue,
            inputPushToken: inputPushToken,
            inputPushChannel: inputPushChannel
        )
        do {
            try payload.validate()
        } catch {
            throw CommandFailure(error.description)
        }
        if let contentStateShape, let state { try Self.check(state, againstShapeFile: contentStateShape) }
        return payload
    }

    /// Refuses a content-state the shape in `file` says the device could not decode, naming each field.
    static func check(_ state: JSONValue, againstShapeFile file: String) throws {
        let shape: ContentStateShape
        do {
            shape = try ContentStateShape(json: try json("@" + file, flag: "--content-state-shape"))
        } catch let error as ContentStateShapeError {
            throw CommandFailure("--content-state-shape \(file): \(error.path): \(error.rule): \(error.message)")
        }
        let violations = shape.check(state)
        guard violations.isEmpty else {
            throw CommandFailure(
                "--content-state would not decode into the app's ContentState (\(file)), so the device would drop it without a word; nothing was sent: "
                    + violations.map(\.description).joined(separator: "; "))
        }
    }

    private func alert() throws -> LiveActivityAlert? {
        if alertTitle != nil, titleLocKey != nil {
            throw CommandFailure("give the alert title either as --alert-title or as --title-loc-key, not both")
        }
        if alertBody != nil, bodyLocKey != nil {
            throw CommandFailure("give the alert body either as --alert-body or as --body-loc-key, not both")
        }
        if !titleLocArgs.isEmpty, titleLocKey == nil { throw CommandFailure("--title-loc-arg needs --title-loc-key") }
        if !bodyLocArgs.isEmpty, bodyLocKey == nil { throw CommandFailure("--body-loc-arg needs --body-loc-key") }
        let title: AlertText? = titleLocKey.map { .localized(key: $0, arguments: titleLocArgs) } ?? alertTitle.map { .plain($0) }
        let body: AlertText? = bodyLocKey.map { .localized(key: $0, arguments: bodyLocArgs) } ?? alertBody.map { .plain($0) }
        guard title != nil || body != nil || sound != nil else { return nil }
        return LiveActivityAlert(title: title, body: body, sound: sound.map { LiveActivityAlert.Sound($0) })
    }

    private func date(_ text: String?, flag: String, now: Date) throws -> Date? {
        guard let text else { return nil }
        do { return try DateInput.parse(text, now: now) } catch { throw CommandFailure("\(flag): \(error.description)") }
    }

    /// JSON text, or `@path` to read it from a file.
    static func json(_ text: String, flag: String) throws -> JSONValue {
        var source = text
        if text.hasPrefix("@") {
            let path = NSString(string: String(text.dropFirst())).expandingTildeInPath
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure("\(flag): cannot read the file '\(path)'")
            }
            source = String(decoding: data, as: UTF8.self)
        }
        do {
            return try JSONValue.parse(source)
        } catch {
            throw CommandFailure("\(flag) is \(error.description); give a JSON object such as '{\"currentHealthLevel\":0.5}' or @file.json")
        }
    }
}

extension LiveActivityEvent: ExpressibleByArgument {}
