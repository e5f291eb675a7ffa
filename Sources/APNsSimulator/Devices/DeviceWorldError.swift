/// A control request the world refuses: which field, and the rule it broke.
public struct DeviceWorldError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The request is malformed (400).
        case invalid
        /// The device, activity or app does not exist (404).
        case notFound
        /// The request conflicts with the current state (409).
        case conflict
    }

    public var kind: Kind
    public var field: String?
    public var message: String

    public init(_ kind: Kind, field: String?, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    public var status: Int {
        switch kind {
        case .invalid: return 400
        case .notFound: return 404
        case .conflict: return 409
        }
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}
