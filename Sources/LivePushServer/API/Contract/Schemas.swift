import Foundation
import LiveActivity
import LivePushAPITypes

/// The API's answers are the contract's own types, generated from `openapi.json` into LivePushAPITypes (the
/// server does not compile the generated client): the contract declares each body once, and the server and
/// every client encode and decode that one declaration (`APIJSON.encoder()` writes them: sorted keys, ISO 8601 dates, absent optionals
/// left out). The server's part is only the mappings from its records and domain values (`Schemas+*.swift`).
typealias Schemas = Components.Schemas

/// A domain value as the contract's enumeration of the same raw values (an activity's state, a push's kind,
/// outcome or priority). The contract lists every value the server writes; one it lacks is the server's
/// fault, answered with a 500 that names the field rather than with JSON the contract refuses.
func contractValue<Value: RawRepresentable, Listed: RawRepresentable>(_ value: Value, _ field: String) throws(APIError) -> Listed
where Listed.RawValue == Value.RawValue {
    guard let listed = Listed(rawValue: value.rawValue) else {
        throw APIError(.internalServerError, field: field, rule: "contract", "the contract lists no value '\(value.rawValue)' for \(field)")
    }
    return listed
}
