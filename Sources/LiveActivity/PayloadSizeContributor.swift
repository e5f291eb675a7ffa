/// One part of a payload and how many bytes of the encoded body it takes, for "what to trim" advice.
public struct PayloadSizeContributor: Sendable, Hashable, CustomStringConvertible {
    /// Where the part sits, e.g. `content-state.eventDescription` or `alert.body`.
    public var path: String
    /// Bytes it adds to the body (its key, colon and encoded value).
    public var bytes: Int

    public var description: String { "\(path) (\(bytes) bytes)" }
}

extension LiveActivityPayload {
    /// The parts of the payload a sender can trim, largest first: each content-state and attributes field,
    /// the alert title and body, and the input push channel.
    public var sizeContributors: [PayloadSizeContributor] {
        var out: [PayloadSizeContributor] = []
        func add(_ prefix: String, _ object: [String: JSONValue]) {
            for (key, value) in object {
                out.append(PayloadSizeContributor(path: prefix + key, bytes: Self.memberBytes(key, value)))
            }
        }
        if let object = contentState?.objectValue { add("content-state.", object) }
        if let object = attributes?.objectValue { add("attributes.", object) }
        if let alert {
            if let title = alert.title {
                out.append(PayloadSizeContributor(path: "alert.title", bytes: Self.memberBytes("title", title.jsonValue)))
            }
            if let body = alert.body {
                out.append(PayloadSizeContributor(path: "alert.body", bytes: Self.memberBytes("body", body.jsonValue)))
            }
        }
        if let inputPushChannel {
            out.append(
                PayloadSizeContributor(
                    path: Key.inputPushChannel.rawValue,
                    bytes: Self.memberBytes(Key.inputPushChannel.rawValue, .string(inputPushChannel))
                )
            )
        }
        return out.sorted { ($0.bytes, $1.path) > ($1.bytes, $0.path) }
    }

    /// Bytes of `"key":value` in compact JSON.
    private static func memberBytes(_ key: String, _ value: JSONValue) -> Int {
        JSONValue.object([key: value]).serialized().count - 2
    }
}
