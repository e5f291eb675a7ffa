import APNsCore
import Foundation
import LiveActivity
import PushStore

/// The body of an update, end or start request, which the contract has accepted (`Update`, `End`,
/// `Start`), read into a `PushContent`.
enum PushRequestBody {
    /// The operations of the contract whose bodies these are, by route family and kind.
    static func operation(_ family: String, _ kind: LiveActivityEvent) -> ContractRoute {
        ContractRoute(kind == .start ? "startForUser" : "\(kind.rawValue)\(family)")
    }

    static func parse(_ body: JSONBody, kind: LiveActivityEvent, now: Date) throws(APIError) -> PushContent {
        let (priority, importance) = priority(body)
        var alert = body.object("alert").map(parseAlert)
        // `sound` is the alert's sound given at the top (the contract refuses both at once).
        if let sound = body.string("sound") {
            alert = LiveActivityAlert(title: alert?.title, body: alert?.body, sound: LiveActivityAlert.Sound(sound))
        }
        return PushContent(
            contentState: body.objectValue("contentState"), requestedPriority: priority, importance: importance, alert: alert,
            staleDate: body.date("staleDate", now: now), relevanceScore: body.number("relevanceScore"),
            dismissalDate: kind == .end ? body.date("dismissalDate", now: now) : nil,
            expiration: body.date("expiration", now: now), collapseID: body.string("collapseId"),
            attributesType: kind == .start ? try body.required("attributesType", body.string) : nil,
            attributes: kind == .start ? try body.required("attributes", body.objectValue) : nil,
            inputPushToken: kind == .start ? body.bool("inputPushToken") ?? false : false,
            inputPushChannel: kind == .start ? body.string("inputPushChannel") : nil
        )
    }

    /// `priority` 5|10 or `importance` routine|timeSensitive (the contract refuses the two disagreeing);
    /// neither: routine (5).
    static func priority(_ body: JSONBody) -> (APNsPriority, PushImportance) {
        let priority: APNsPriority? = body.number("priority").map { $0 == 10 ? .immediate : .conservesPower }
        let importance: PushImportance? = body.string("importance").map { $0 == "routine" ? .routine : .timeSensitive }
        switch (priority, importance) {
        case (nil, nil): return (.conservesPower, .routine)
        case (let priority?, nil): return (priority, priority == .immediate ? .timeSensitive : .routine)
        case (nil, let importance?): return (importance == .timeSensitive ? .immediate : .conservesPower, importance)
        case (let priority?, let importance?): return (priority, importance)
        }
    }

    static func parseAlert(_ object: JSONBody) -> LiveActivityAlert {
        LiveActivityAlert(
            title: parseText(object, "title"), body: parseText(object, "body"), sound: object.string("sound").map { LiveActivityAlert.Sound($0) })
    }

    /// A plain string, or `{"locKey": "...", "locArgs": ["..."]}` for a localized text.
    static func parseText(_ object: JSONBody, _ key: String) -> AlertText? {
        if let text = object.string(key) { return .plain(text) }
        guard let localized = object.object(key), let locKey = localized.string("locKey") else { return nil }
        return .localized(key: locKey, arguments: localized.strings("locArgs") ?? [])
    }
}
