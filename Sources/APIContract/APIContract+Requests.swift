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
