import Foundation

/// Decodes a Live Activity's content-state as ActivityKit does on the device: the `content-state` of the
/// push payload through a `JSONDecoder` with its default settings (dates as seconds since 2001-01-01, keys
/// as they are). A content-state the device cannot decode is dropped there without a word, so an app's
/// unit test runs the payloads its server sends through this and fails instead.
///
/// ```swift
/// @Test func theServersUpdateDecodes() throws {
///     let payload = try Data(contentsOf: vectorURL("update.json"))
///     let state = try ContentStateDecoding.decode(AdventureAttributes.ContentState.self, fromPayload: payload)
///     #expect(state.eventDescription == "Power Panda found a sword!")
/// }
/// ```
public enum ContentStateDecoding {
    /// The `aps.content-state` of an APNs payload (`{"aps":{…}}`), decoded as `State`.
    public static func decode<State: Decodable>(_ type: State.Type, fromPayload payload: Data) throws(ContentStateMismatch) -> State {
        do {
            return try JSONDecoder().decode(Payload<State>.self, from: payload).aps.contentState
        } catch let error as DecodingError {
            throw ContentStateMismatch(error, below: ["aps", "content-state"])
        } catch {
            throw ContentStateMismatch(field: nil, rule: "json", message: "the payload is not JSON: \(error)")
        }
    }

    /// A content-state alone (the JSON object your backend sends as `contentState`), decoded as `State`.
    public static func decode<State: Decodable>(_ type: State.Type, fromContentState json: Data) throws(ContentStateMismatch) -> State {
        do {
            return try JSONDecoder().decode(State.self, from: json)
        } catch let error as DecodingError {
            throw ContentStateMismatch(error, below: [])
        } catch {
            throw ContentStateMismatch(field: nil, rule: "json", message: "not JSON: \(error)")
        }
    }

    private struct Payload<State: Decodable>: Decodable {
        var aps: APS

        struct APS: Decodable {
            var contentState: State

            enum CodingKeys: String, CodingKey {
                case contentState = "content-state"
            }
        }
    }
}

/// Why a content-state would not decode on the device: the field at fault (its path in the content-state,
/// like `hero.health` or `events[2]`), the rule it breaks and what the decoder said.
public struct ContentStateMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's path inside the content-state; nil when the content-state itself is at fault.
    public var field: String?
    /// `type` (a value of another type, such as a fraction for an `Int`), `required` (a non-optional field
    /// missing), `null` (null for a non-optional field), `corrupted` (a value the type refuses), `json`.
    public var rule: String
    public var message: String

    public init(field: String?, rule: String, message: String) {
        self.field = field
        self.rule = rule
        self.message = message
    }

    init(_ error: DecodingError, below prefix: [String]) {
        func path(_ codingPath: [any CodingKey]) -> String? {
            var keys = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            if keys.starts(with: prefix) { keys.removeFirst(prefix.count) }
            guard !keys.isEmpty else { return nil }
            return keys.reduce("") { path, key in key.hasPrefix("[") || path.isEmpty ? path + key : path + "." + key }
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(field: path(context.codingPath), rule: "type", message: "expected \(type): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            self.init(
                field: path(context.codingPath + [key]), rule: "required",
                message: "missing, and the ContentState has no default for it: make it optional to accept payloads without it")
        case .valueNotFound(let type, let context):
            self.init(field: path(context.codingPath), rule: "null", message: "null where a \(type) is required")
        case .dataCorrupted(let context):
            // Some decoders (Foundation's on Linux) report a fraction for an integer field this way, without the key.
            let field = path(context.codingPath)
            self.init(
                field: field, rule: "corrupted",
                message: field == nil ? "\(context.debugDescription) (a fraction for an integer field reads so too)" : context.debugDescription)
        @unknown default:
            self.init(field: nil, rule: "corrupted", message: "\(error)")
        }
    }

    public var description: String {
        "content-state\(field.map { " field '\($0)'" } ?? ""): \(rule): \(message)"
    }
}
