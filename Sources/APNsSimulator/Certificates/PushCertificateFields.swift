import APNsCore
import SwiftASN1
import X509

/// Where Apple's APNs provider certificates carry the app and the environment, as the simulator writes
/// and reads them (docs/apns-protocol.md §6: the allowed topics are in certificate extensions):
///
/// - subject `UID` (0.9.2342.19200300.100.1.1): the bundle id, also the default `apns-topic`;
/// - subject `CN`: `Apple Development IOS Push Services: <bundle id>` (sandbox) or
///   `Apple Production IOS Push Services: <bundle id>` (production);
/// - extension 1.2.840.113635.100.6.3.1 (ASN.1 NULL): valid for the development (sandbox) environment;
/// - extension 1.2.840.113635.100.6.3.2 (ASN.1 NULL): valid for production;
/// - extension 1.2.840.113635.100.6.3.6: the topics, a SEQUENCE alternating each topic (UTF8String) with a
///   SEQUENCE of UTF8String kinds (`app`, `voip`, `complication`), as in Apple's "Apple Push Services"
///   certificates and as libraries such as Pushy read them.
enum PushCertificateFields {
    static let userID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]
    static let development: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 1]
    static let production: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 2]
    static let topics: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 6]

    /// The extension that marks a certificate valid for `environment`.
    static func environmentExtension(_ environment: APNsEnvironment) -> ASN1ObjectIdentifier {
        environment == .production ? production : development
    }

    /// The common name Apple gives a push certificate of one environment.
    static func commonName(bundleID: String, environment: APNsEnvironment) -> String {
        "Apple \(environment == .production ? "Production" : "Development") IOS Push Services: \(bundleID)"
    }

    /// The DER value of the topics extension: each topic followed by its kinds.
    static func encodeTopics(_ topics: [(topic: String, kinds: [String])]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            for entry in topics {
                try coder.serialize(ASN1UTF8String(entry.topic))
                try coder.appendConstructedNode(identifier: .sequence) { kinds in
                    for kind in entry.kinds { try kinds.serialize(ASN1UTF8String(kind)) }
                }
            }
        }
        return serializer.serializedBytes
    }

    /// The topics listed in the topics extension's value (the strings at its top level; the kinds are
    /// skipped). Empty when the value is not a SEQUENCE.
    static func decodeTopics(_ value: ArraySlice<UInt8>) -> [String] {
        guard let root = try? DER.parse(value), root.identifier == .sequence,
            case .constructed(let children) = root.content
        else { return [] }
        var topics: [String] = []
        for child in children where child.identifier == ASN1UTF8String.defaultIdentifier {
            if let text = try? ASN1UTF8String(derEncoded: child) { topics.append(String(text)) }
        }
        return topics
    }

    /// The DER of ASN.1 NULL, the value of the environment extensions.
    static let null: [UInt8] = [0x05, 0x00]
}
