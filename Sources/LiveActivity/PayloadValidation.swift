import APNsCore
import Foundation

extension LiveActivityPayload {
    /// The largest body APNs accepts for a Live Activity push to a token.
    public static let maximumSize = APNsPushType.liveactivity.maximumPayloadSize

    /// How many of the largest parts a size error names.
    static let reportedContributors = 3

    /// Every rule the payload breaks, in a stable order: event rules, then value rules, then size.
    public func problems(maximumSize: Int = LiveActivityPayload.maximumSize) -> [LiveActivityPayloadError] {
        problems(maximumSize: maximumSize, size: encoded().count)
    }

    /// The problems, for a payload whose body is `size` bytes (written once by the caller).
    func problems(maximumSize: Int, size: Int) -> [LiveActivityPayloadError] {
        var out: [LiveActivityPayloadError] = []
        if contentState == nil, event != .end { out.append(.missingContentState(event: event)) }
        if event == .start {
            if attributesType == nil { out.append(.missingStartField(.attributesType)) }
            if attributes == nil { out.append(.missingStartField(.attributes)) }
            if alert == nil { out.append(.missingStartField(.alert)) }
        } else {
            if attributesType != nil { out.append(.attributesNotOnStart(.attributesType, event: event)) }
            if attributes != nil { out.append(.attributesNotOnStart(.attributes, event: event)) }
            if inputPushToken { out.append(.inputPushNotOnStart(.inputPushToken, event: event)) }
            if inputPushChannel != nil { out.append(.inputPushNotOnStart(.inputPushChannel, event: event)) }
        }
        if event != .end, dismissalDate != nil { out.append(.dismissalDateNotOnEnd(event: event)) }
        if let contentState, contentState.objectValue == nil {
            out.append(.contentStateNotObject(actualType: contentState.typeName))
        }
        if let attributes, attributes.objectValue == nil {
            out.append(.attributesNotObject(actualType: attributes.typeName))
        }
        if let attributesType, attributesType.isEmpty { out.append(.emptyAttributesType) }
        if let relevanceScore, !relevanceScore.isFinite { out.append(.relevanceScoreNotFinite(relevanceScore)) }
        if let alert {
            if case .localized(let key, _)? = alert.title, key.isEmpty { out.append(.emptyLocKey(field: "alert.title")) }
            if case .localized(let key, _)? = alert.body, key.isEmpty { out.append(.emptyLocKey(field: "alert.body")) }
            if case .file(let name)? = alert.sound, name.isEmpty { out.append(.emptySoundName) }
        }
        if let inputPushChannel, inputPushChannel.isEmpty || Data(base64Encoded: inputPushChannel) == nil {
            out.append(.invalidInputPushChannel(inputPushChannel))
        }
        if size > maximumSize {
            out.append(
                .payloadTooLarge(
                    size: size, limit: maximumSize,
                    largest: Array(sizeContributors.prefix(Self.reportedContributors))
                )
            )
        }
        return out
    }

    /// Checks the payload the way APNs and the device will; throws the first problem found.
    public func validate(maximumSize: Int = LiveActivityPayload.maximumSize) throws(LiveActivityPayloadError) {
        if let first = problems(maximumSize: maximumSize).first { throw first }
    }
}
