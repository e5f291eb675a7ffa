import APNsCore
import Foundation
import LiveActivity
import PushStore

/// The body of an update, end or start request, which the contract has accepted and which is decoded as
/// its generated type (`Update`, `End`, `Start`, and the same members in a batch's `BatchItem` and in an
/// `AudienceStart`), read into a `PushContent`.
struct PushRequestBody {
    /// The operations of the contract whose bodies these are, by route family and kind.
    static func operation(_ family: String, _ kind: LiveActivityEvent) -> ContractRoute {
        ContractRoute(kind == .start ? "startForUser" : "\(kind.rawValue)\(family)")
    }

    /// A start's own members.
    struct Start {
        var attributesType: String
        var attributes: JSONValue
        var inputPushToken: Bool?
        var inputPushChannel: String?
    }

    var contentState: JSONValue?
    var alert: Schemas.Alert?
    var priority: Schemas.Priority?
    var importance: Schemas.Importance?
    var sound: String?
    var staleDate: Schemas.Date?
    var relevanceScore: Double?
    var expiration: Schemas.Expiration?
    var collapseID: String?
    /// An end's only.
    var dismissalDate: Schemas.DismissalDate?
    var start: Start?

    /// The push the body asks for; the relative dates count from `now`, when the contract checked them.
    func content(now: Date) -> PushContent {
        let (priority, importance) = Self.priority(priority, importance)
        var alert = alert.map(LiveActivityAlert.init)
        // `sound` is the alert's sound given at the top (the contract refuses both at once).
        if let sound {
            alert = LiveActivityAlert(title: alert?.title, body: alert?.body, sound: LiveActivityAlert.Sound(sound))
        }
        return PushContent(
            contentState: contentState, requestedPriority: priority, importance: importance, alert: alert,
            staleDate: staleDate?.moment(now: now), relevanceScore: relevanceScore, dismissalDate: dismissalDate?.moment(now: now),
            expiration: expiration?.moment(now: now), collapseID: collapseID, attributesType: start?.attributesType,
            attributes: start?.attributes, inputPushToken: start?.inputPushToken ?? false,
            inputPushChannel: start?.inputPushChannel)
    }

    /// `priority` 5|10 or `importance` routine|timeSensitive (the contract refuses the two disagreeing);
    /// neither: routine (5).
    static func priority(_ priority: Schemas.Priority?, _ importance: Schemas.Importance?) -> (APNsPriority, PushImportance) {
        let priority: APNsPriority? = priority.map { $0 == ._10 ? .immediate : .conservesPower }
        let importance: PushImportance? = importance.map { $0 == .routine ? .routine : .timeSensitive }
        switch (priority, importance) {
        case (nil, nil): return (.conservesPower, .routine)
        case (let priority?, nil): return (priority, priority == .immediate ? .timeSensitive : .routine)
        case (nil, let importance?): return (importance == .timeSensitive ? .immediate : .conservesPower, importance)
        case (let priority?, let importance?): return (priority, importance)
        }
    }
}

extension PushRequestBody {
    init(_ body: Schemas.Update) {
        self.init(
            contentState: body.contentState, alert: body.alert?.value1, priority: body.priority?.value1, importance: body.importance?.value1,
            sound: body.sound?.value1, staleDate: body.staleDate?.value1, relevanceScore: body.relevanceScore,
            expiration: body.expiration?.value1, collapseID: body.collapseId)
    }

    init(_ body: Schemas.End) {
        self.init(
            contentState: body.contentState?.value1, alert: body.alert?.value1, priority: body.priority?.value1,
            importance: body.importance?.value1, sound: body.sound?.value1, staleDate: body.staleDate?.value1,
            relevanceScore: body.relevanceScore, expiration: body.expiration?.value1, collapseID: body.collapseId,
            dismissalDate: body.dismissalDate?.value1)
    }

    init(_ body: Schemas.Start) {
        self.init(
            contentState: body.contentState, alert: body.alert, priority: body.priority?.value1, importance: body.importance?.value1,
            sound: body.sound?.value1, staleDate: body.staleDate?.value1, relevanceScore: body.relevanceScore,
            expiration: body.expiration?.value1, collapseID: body.collapseId,
            start: Start(
                attributesType: body.attributesType, attributes: body.attributes, inputPushToken: body.inputPushToken,
                inputPushChannel: body.inputPushChannel))
    }

    /// A batch's item: an update's members, or an end's with `event` end.
    init(_ item: Schemas.BatchItem) {
        self.init(
            contentState: item.contentState?.value1, alert: item.alert?.value1, priority: item.priority?.value1,
            importance: item.importance?.value1, sound: item.sound?.value1, staleDate: item.staleDate?.value1,
            relevanceScore: item.relevanceScore, expiration: item.expiration?.value1, collapseID: item.collapseId,
            dismissalDate: item.event == .end ? item.dismissalDate?.value1 : nil)
    }

    /// An audience start's start (its audience apart).
    init(_ body: Schemas.AudienceStart) {
        self.init(
            contentState: body.contentState, alert: body.alert, priority: body.priority?.value1, importance: body.importance?.value1,
            sound: body.sound?.value1, staleDate: body.staleDate?.value1, relevanceScore: body.relevanceScore,
            expiration: body.expiration?.value1, collapseID: body.collapseId,
            start: Start(
                attributesType: body.attributesType, attributes: body.attributes, inputPushToken: body.inputPushToken,
                inputPushChannel: body.inputPushChannel))
    }
}
