import Foundation
import LiveActivity

extension APIContract.Operation {
    /// Checks a request body (nil: none was sent) against the operation's schema.
    package func checkBody(_ body: JSONValue?, now: Date) throws(ContractViolation) {
        guard let schema = self.body else { return }
        guard let body else {
            guard !bodyRequired else {
                throw ContractViolation(field: nil, rule: "required", "the request body is empty; expected \(schema.typeText ?? "a JSON value")")
            }
            return
        }
        try SchemaValidator(now: now).validate(body, schema, at: "")
    }

    /// Checks a parameter's value (a path parameter after percent-decoding) against its schema.
    package func checkParameter(_ name: String, _ value: String, now: Date) throws(ContractViolation) {
        guard let parameter = parameters[name] ?? parameters[name.lowercased()] else {
            preconditionFailure("the contract's \(id) has no parameter '\(name)'")
        }
        let field = parameter.name
        try SchemaValidator(now: now).validate(.string(value), parameter.schema, at: field)
    }
}

extension APIContract {
    /// A date the contract has accepted (`x-check: date` or `expiration`), as a `Date`: Unix seconds, a
    /// relative time counted from `now`, or ISO 8601; nil for any other value.
    package static func date(_ value: JSONValue, now: Date) -> Date? {
        switch value {
        case .number(let seconds): return Date(timeIntervalSince1970: seconds)
        case .string(let text): return try? DateInput.parse(text, now: now)
        default: return nil
        }
    }
}
