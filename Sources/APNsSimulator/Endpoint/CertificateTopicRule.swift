import APNsCore

/// Step 6 of `PushRequestChecks` (the topic) on a connection authenticated by a client certificate, where
/// it differs from token auth:
///
/// - `apns-topic` omitted: the certificate's topic when it lists only one (its bundle id), as APNs does;
///   400 `MissingTopic` when it lists several.
/// - A Live Activity push (`apns-push-type: liveactivity`, or a `.push-type.liveactivity` topic):
///   `EndpointConfiguration.liveActivityOverCertificateReason`, 400 `TopicDisallowed` by default (Apple
///   said at WWDC23 that Live Activities need token auth; the answer is a field report). When that setting
///   is nil, the push is allowed for the certificate's own bundle id.
/// - After the topic syntax checks shared with token auth: a topic the certificate does not list (another
///   app's, or a push type's topic it lacks): 400 `TopicDisallowed`.
enum CertificateTopicRule {
    /// The topic to check: the header's, or the certificate's default. Applies the Live Activity rule.
    static func topic(
        _ value: String?, pushType: APNsPushType, certificate: ProviderCertificateIdentity,
        configuration: EndpointConfiguration
    ) throws(Rejection) -> String {
        let topic: String
        if let value, !value.isEmpty {
            topic = value
        } else {
            guard certificate.topics.count == 1 else { throw Rejection(.missingTopic) }
            topic = certificate.bundleID
        }
        let liveActivitySuffix = APNsPushType.liveactivity.topicSuffix ?? ""
        if pushType == .liveactivity || topic.hasSuffix(liveActivitySuffix),
            let reason = configuration.liveActivityOverCertificateReason
        {
            throw Rejection(reason)
        }
        return topic
    }

    /// Whether the certificate allows a well-formed topic (`bundleID` is the topic without its suffix).
    static func check(
        topic: String, bundleID: Substring, pushType: APNsPushType, certificate: ProviderCertificateIdentity
    ) throws(Rejection) {
        if certificate.topics.contains(topic) { return }
        // Reached only when liveActivityOverCertificateReason is nil: the certificate's own app.
        if pushType == .liveactivity, bundleID == certificate.bundleID { return }
        throw Rejection(.topicDisallowed)
    }
}
