/// The kinds of record a store keeps, as named in errors.
package enum PushStoreRecordKind: String, Sendable, Hashable, Codable {
    case activity
    case pushToStartToken
    case outboxItem
    case apiKey
    case webhookEvent
    case idempotencyKey
    case channel
}

/// Every failure a ``PushStore`` reports. Each case says what was wrong and, for bad input, which
/// field and which rule.
package enum PushStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No record of this kind with this id (or token) exists.
    case notFound(kind: PushStoreRecordKind, id: String)
    /// The id (or token value) is held by another owner; the caller may not take it.
    case taken(kind: PushStoreRecordKind, id: String)
    /// The change contradicts what is stored (a retired token, a token held by another activity, an
    /// outbox item claimed by another worker, a duplicate id).
    case conflict(detail: String)
    /// A value broke a rule; `field` names it (`items[3].priority`), `rule` says what is accepted.
    case invalidInput(field: String, rule: String)
    /// The database cannot be reached or the store is closed.
    case unavailable(detail: String)
    /// The database answered with an error the store did not expect, or a stored value is unreadable.
    case database(detail: String)

    package var description: String {
        switch self {
        case .notFound(let kind, let id):
            return "no \(kind.rawValue) '\(id)' is stored"
        case .taken(let kind, let id):
            return "\(kind.rawValue) '\(id)' is held by another owner"
        case .conflict(let detail):
            return "conflict: \(detail)"
        case .invalidInput(let field, let rule):
            return "invalid \(field): \(rule)"
        case .unavailable(let detail):
            return "store unavailable: \(detail)"
        case .database(let detail):
            return "database error: \(detail)"
        }
    }
}
