import Foundation
import LiveActivity

/// Encodes an `Encodable` (the contract's generated response types) as a `JSONValue`, which
/// ``JSONValue/serialized()`` writes byte for byte as ``APIJSON/encoder()`` (Foundation's `JSONEncoder`
/// with ISO 8601 dates, sorted keys and unescaped slashes) writes the same value. A response is written on
/// every request; the encoder's boxing, its date formatter and its key sorting were up to 8% of the
/// server's CPU for registrations.
///
/// As that encoder: dates as ISO 8601 text in UTC without fractional seconds, data as Base64, URLs as their
/// text, a number that is not finite refused (``APIResponse`` answers its encoding error instead).
enum JSONValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        if let representable = value as? any JSONValueRepresentable { return representable.jsonValue }
        let root = JSONValueEncoding(codingPath: [])
        try root.encodeValue(value)
        return root.node.value
    }

    /// `value` as the API's JSON text.
    static func data(_ value: some Encodable) throws -> Data {
        try encode(value).serialized()
    }
}

/// A value under construction: containers are shared by reference while their members are encoded.
private final class JSONNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: JSONNode])
        case array([JSONNode])
    }

    var content: Content = .empty

    var value: JSONValue {
        switch content {
        // An encoder that made no container and no value: JSONEncoder writes an empty object.
        case .empty: return .object([:])
        case .value(let value): return value
        case .object(let members): return .object(members.mapValues(\.value))
        case .array(let elements): return .array(elements.map(\.value))
        }
    }
}

private final class JSONValueEncoding: Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let node: JSONNode
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey], node: JSONNode = JSONNode()) {
        self.codingPath = codingPath
        self.node = node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(JSONValueKeyedEncoding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return JSONValueUnkeyedEncoding(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: Single value

    func encodeNil() { node.content = .value(.null) }
    func encode(_ value: Bool) { node.content = .value(.bool(value)) }
    func encode(_ value: String) { node.content = .value(.string(value)) }
    func encode(_ value: Double) throws { node.content = .value(try number(value)) }
    func encode(_ value: Float) throws {
        // As JSONEncoder: the float's own shortest form, not that of its widening to a double.
        guard value.isFinite, let widened = Double(value.description) else { throw notFinite(value) }
        node.content = .value(.number(widened))
    }
    func encode(_ value: Int) { node.content = .value(.number(Double(value))) }
    func encode(_ value: Int8) { node.content = .value(.number(Double(value))) }
    func encode(_ value: Int16) { node.content = .value(.number(Double(value))) }
    func encode(_ value: Int32) { node.content = .value(.number(Double(value))) }
    func encode(_ value: Int64) { node.content = .value(.number(Double(value))) }
    func encode(_ value: UInt) { node.content = .value(.number(Double(value))) }
    func encode(_ value: UInt8) { node.content = .value(.number(Double(value))) }
    func encode(_ value: UInt16) { node.content = .value(.number(Double(value))) }
    func encode(_ value: UInt32) { node.content = .value(.number(Double(value))) }
    func encode(_ value: UInt64) { node.content = .value(.number(Double(value))) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    /// `value` into this encoder's node, with the types JSONEncoder writes its own way. Told apart by their
    /// metatypes: a cast of every value to each of them was most of the encoder's cost.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if T.self == Date.self {
            node.content = .value(.string(unsafeBitCast(value, to: Date.self).formatted(.iso8601)))
        } else if T.self == Data.self {
            node.content = .value(.string(unsafeBitCast(value, to: Data.self).base64EncodedString()))
        } else if T.self == URL.self {
            node.content = .value(.string(unsafeBitCast(value, to: URL.self).absoluteString))
        } else if T.self == JSONValue.self {
            node.content = .value(unsafeBitCast(value, to: JSONValue.self))
        } else {
            try value.encode(to: self)
        }
    }

    /// A child encoder for the member or element `key`, writing into `node`.
    func child(_ node: JSONNode, key: any CodingKey) -> JSONValueEncoding {
        JSONValueEncoding(codingPath: codingPath + [key], node: node)
    }

    private func number(_ value: Double) throws -> JSONValue {
        guard value.isFinite else { throw notFinite(value) }
        return .number(value)
    }

    private func notFinite(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON form"))
    }
}

private struct JSONValueKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The member `key`'s node, made when first asked for (a nested container asked twice is one).
    private func member(_ key: any CodingKey) -> JSONNode {
        guard case .object(var members) = encoder.node.content else { return JSONNode() }
        if let existing = members[key.stringValue] { return existing }
        let made = JSONNode()
        members[key.stringValue] = made
        encoder.node.content = .object(members)
        return made
    }

    private func set(_ value: JSONValue, for key: Key) {
        member(key).content = .value(value)
    }

    mutating func encodeNil(forKey key: Key) { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.number(Double(value)), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard value.isFinite else { return try encoder.child(member(key), key: key).encode(value) }
        set(.number(value), for: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.child(member(key), key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(member(key), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(member(key), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(member(key), key: key) }
}

private struct JSONValueUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    var count: Int {
        guard case .array(let elements) = encoder.node.content else { return 0 }
        return elements.count
    }

    /// A new last element's node.
    private func append() -> (node: JSONNode, key: any CodingKey) {
        let made = JSONNode()
        let index = count
        if case .array(var elements) = encoder.node.content {
            elements.append(made)
            encoder.node.content = .array(elements)
        }
        return (made, ArrayIndexKey(index))
    }

    mutating func encodeNil() { append().node.content = .value(.null) }
    mutating func encode(_ value: Bool) { append().node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) { append().node.content = .value(.string(value)) }
    mutating func encode(_ value: Int) { append().node.content = .value(.number(Double(value))) }
    mutating func encode(_ value: Double) throws {
        let (node, key) = append()
        try encoder.child(node, key: key).encode(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let (node, key) = append()
        try encoder.child(node, key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (node, key) = append()
        return encoder.child(node, key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (node, key) = append()
        return encoder.child(node, key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (node, key) = append()
        return encoder.child(node, key: key)
    }
}
