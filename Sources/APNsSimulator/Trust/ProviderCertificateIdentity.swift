import APNsCore
import X509

/// What an APNs provider certificate says about its holder (`PushCertificateFields`): the app (subject
/// UID), the topics it may push to, and the environments it is valid for.
struct ProviderCertificateIdentity: Sendable, Hashable {
    /// The subject UID: the app's bundle id, and the default `apns-topic`.
    let bundleID: String
    /// The bundle id, then every topic of the topics extension (without repeats).
    let topics: [String]
    /// The environments of the environment extensions.
    let environments: Set<APNsEnvironment>

    /// Why a certificate is not an APNs provider certificate.
    enum Unusable: Error, Sendable, Hashable {
        case noBundleID
        case noEnvironment
    }

    init(bundleID: String, topics: [String], environments: Set<APNsEnvironment>) {
        self.bundleID = bundleID
        self.topics = topics
        self.environments = environments
    }

    /// Reads the fields of `certificate`; fails when it names no bundle id or no push environment.
    init(_ certificate: Certificate) throws(Unusable) {
        let uid = certificate.subject.lazy.flatMap { $0 }.first { $0.type == PushCertificateFields.userID }
        guard let uid, let bundleID = String(uid.value), !bundleID.isEmpty else { throw .noBundleID }
        var environments: Set<APNsEnvironment> = []
        if certificate.extensions[oid: PushCertificateFields.development] != nil { environments.insert(.sandbox) }
        if certificate.extensions[oid: PushCertificateFields.production] != nil { environments.insert(.production) }
        guard !environments.isEmpty else { throw .noEnvironment }
        var topics = [bundleID]
        if let listed = certificate.extensions[oid: PushCertificateFields.topics] {
            for topic in PushCertificateFields.decodeTopics(listed.value) where !topics.contains(topic) {
                topics.append(topic)
            }
        }
        self.init(bundleID: bundleID, topics: topics, environments: environments)
    }
}
