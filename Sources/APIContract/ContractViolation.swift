/// A request the contract refuses: the field at fault (with its path: `alert.body.locKey`, `groups[0]`),
/// the rule it broke (`required`, `maxLength`, `hex`…) and a sentence saying what is accepted.
package struct ContractViolation: Error, Sendable, Hashable, CustomStringConvertible {
    package var field: String?
    package var rule: String
    package var message: String

    package init(field: String?, rule: String, _ message: String) {
        self.field = field
        self.rule = rule
        self.message = message
    }

    package var description: String { "\(field ?? "-") \(rule): \(message)" }
}

/// The contract itself is unusable (a broken `$ref`, a pattern that does not compile): a defect of the
/// document, found when it is loaded.
package enum ContractDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(String)

    package var description: String {
        switch self {
        case .invalid(let detail): return "the API contract is invalid: \(detail)"
        }
    }
}
