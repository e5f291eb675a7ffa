import Foundation

extension LiveActivityPayload {
    /// The `aps` dictionary as JSON. A non-finite relevance score has no JSON form and is left out here;
    /// `validate()` rejects it.
    public var apsValue: JSONValue {
        var aps: [String: JSONValue] = [
            Key.timestamp.rawValue: Self.unixSeconds(timestamp),
            Key.event.rawValue: .string(event.rawValue),
        ]
        aps[Key.contentState.rawValue] = contentState
        aps[Key.staleDate.rawValue] = staleDate.map(Self.unixSeconds)
        aps[Key.dismissalDate.rawValue] = dismissalDate.map(Self.unixSeconds)
        if let relevanceScore, relevanceScore.isFinite {
            aps[Key.relevanceScore.rawValue] = .number(relevanceScore)
        }
        aps[Key.alert.rawValue] = alert?.jsonValue
        aps[Key.attributesType.rawValue] = attributesType.map(JSONValue.string)
        aps[Key.attributes.rawValue] = attributes
        if inputPushToken { aps[Key.inputPushToken.rawValue] = .number(1) }
        aps[Key.inputPushChannel.rawValue] = inputPushChannel.map(JSONValue.string)
        return .object(aps)
    }

    /// The whole request body as JSON: `{"aps":{…}}`.
    public var jsonValue: JSONValue { .object(["aps": apsValue]) }

    /// The request body: compact JSON with sorted keys, whole numbers written as integers. Not checked;
    /// use `validatedBody()` (or `validate()` first) before sending.
    public func encoded() -> Data { jsonValue.serialized() }

    /// Checks the payload (`validate(maximumSize:)`) and returns the request body.
    public func validatedBody(
        maximumSize: Int = LiveActivityPayload.maximumSize
    ) throws(LiveActivityPayloadError) -> Data {
        // Written once: the size check reads the body that is sent.
        let body = encoded()
        if let first = problems(maximumSize: maximumSize, size: body.count).first { throw first }
        return body
    }

    /// A date as whole Unix seconds (fractions dropped), the form of `timestamp`, `stale-date` and
    /// `dismissal-date`.
    static func unixSeconds(_ date: Date) -> JSONValue {
        .number(date.timeIntervalSince1970.rounded(.down))
    }
}
