import PushStore

/// Why the domain refused a request, without any transport: what was wrong (`subject`: the field or
/// identifier at fault, as the API names it), the rule it broke, and a sentence for a person. The API
/// maps each kind to an HTTP status in one place (`APIErrorMiddleware`).
struct DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        /// The input breaks a rule (400).
        case invalid
        /// The credential does not allow it: another user's data, or a credential that acts for nobody (403).
        case forbidden
        /// The thing named does not exist (404).
        case notFound
        /// It exists but is in a state that refuses this (409).
        case conflict
        /// An `Idempotency-Key` given again with another request (422).
        case keyReused
        /// A content-state the device could not decode into the app's ContentState (its stored shape) (422).
        case undecodable
        /// APNs refused or could not be reached for a synchronous call (channel management) (502).
        case upstream
        /// The store cannot answer now; nothing was written (503).
        case unavailable
    }

    var kind: Kind
    var subject: String?
    var rule: String
    var message: String

    var description: String { "\(kind) \(subject ?? "-") \(rule): \(message)" }

    init(kind: Kind, subject: String?, rule: String, message: String) {
        self.kind = kind
        self.subject = subject
        self.rule = rule
        self.message = message
    }

    static func invalid(_ subject: String?, _ rule: String, _ message: String) -> DomainError {
        DomainError(kind: .invalid, subject: subject, rule: rule, message: message)
    }

    static func forbidden(_ subject: String?, _ rule: String, _ message: String) -> DomainError {
        DomainError(kind: .forbidden, subject: subject, rule: rule, message: message)
    }

    static func notFound(_ subject: String, _ message: String) -> DomainError {
        DomainError(kind: .notFound, subject: subject, rule: "exists", message: message)
    }

    static func conflict(_ subject: String?, _ rule: String, _ message: String) -> DomainError {
        DomainError(kind: .conflict, subject: subject, rule: rule, message: message)
    }

    /// The domain reading of a store failure.
    init(_ error: PushStoreError) {
        switch error {
        case .notFound(let kind, let id):
            self = .notFound(kind.rawValue + "Id", "no \(kind.rawValue) '\(id)' is registered")
        case .taken(let kind, let id):
            self = .conflict(kind.rawValue + "Id", "taken", "\(kind.rawValue) '\(id)' is held by another user or installation")
        case .conflict(let detail):
            self = .conflict(nil, "conflict", detail)
        case .invalidInput(let field, let rule):
            self = .invalid(field, "invalid", rule)
        case .unavailable(let detail), .database(let detail):
            self = DomainError(kind: .unavailable, subject: nil, rule: "unavailable", message: detail)
        }
    }
}

/// Runs a store call, turning its failure into a `DomainError`.
func stored<T: Sendable>(_ body: () async throws(PushStoreError) -> T) async throws(DomainError) -> T {
    do {
        return try await body()
    } catch {
        throw DomainError(error)
    }
}
