import Foundation
import LiveActivity

/// The rules JSON Schema cannot state, kept here once and named in the document by `x-check`:
/// - `date`: a moment given as Unix seconds (a number or digits), ISO 8601 or relative to now (`+30m`),
///   inside the window of the schema's number form (its `minimum`, and its `maximum`, excluded when
///   `exclusiveMaximum`): 400 `date` for another form, `dateRange` outside;
/// - `expiration`: a `date` after now (400 `future`) and at most `x-maximumAhead` seconds from now
///   (`dateRange`): a window that moves with now;
/// - `contentStateShape`: a ContentState shape `LiveActivity.ContentStateShape` reads (its subset of JSON
///   Schema), the refusal naming the keyword by its path in the shape (`contentStateShape.properties.level.type`).
enum ContractCheck {
    static func run(_ name: String, _ value: JSONValue, _ schema: Schema, at field: String, now: Date) throws(ContractViolation) {
        switch name {
        case "date":
            _ = try date(value, field: field, now: now, window: window(of: schema))
        case "expiration":
            let date = try date(value, field: field, now: now, window: nil)
            guard date > now else {
                throw ContractViolation(
                    field: field, rule: "future", "'\(field)' is not in the future; give a later date (ISO 8601, Unix seconds or +1h)")
            }
            if let ahead = schema.maximumAhead, date > now.addingTimeInterval(ahead) {
                let text = ahead >= 86_400 ? "\(Int(ahead / 86_400)) days" : "\(Int(ahead)) seconds"
                throw ContractViolation(
                    field: field, rule: "dateRange",
                    "'\(field)' is \(iso(date)); accepted: at most \(text) from now (\(iso(now.addingTimeInterval(ahead)))))")
            }
        case "contentStateShape":
            do {
                _ = try ContentStateShape(json: value)
            } catch {
                throw ContractViolation(field: field.isEmpty ? error.path : field + "." + error.path, rule: error.rule, error.message)
            }
        default:
            preconditionFailure("the contract names the check '\(name)', which the server does not have")
        }
    }

    /// The names `run` knows, for loading the document.
    static let names: Set<String> = ["date", "expiration", "contentStateShape"]

    /// A date's window: the number form's bounds (the earliest accepted, the end excluded when exclusive).
    struct Window {
        var earliest: Double
        var end: Double
        var endIncluded: Bool

        func contains(_ seconds: Double) -> Bool { seconds >= earliest && (endIncluded ? seconds <= end : seconds < end) }

        var text: String {
            let to = endIncluded ? "to" : "to before"
            return
                "from \(iso(Date(timeIntervalSince1970: earliest))) (Unix \(Int(earliest))) \(to) \(iso(Date(timeIntervalSince1970: end))) (Unix \(Int(end)))"
        }
    }

    static func window(of schema: Schema) -> Window? {
        guard let number = schema.oneOf.first(where: { $0.type == "number" || $0.type == "integer" }),
            let earliest = number.minimum, let end = number.maximum
        else { return nil }
        return Window(earliest: earliest, end: end, endIncluded: !number.exclusiveMaximum)
    }

    /// The value as a date: a number of Unix seconds or a text `DateInput` reads, inside `window`.
    static func date(_ value: JSONValue, field: String, now: Date, window: Window?) throws(ContractViolation) -> Date {
        let date: Date
        switch value {
        case .number(let seconds):
            // Compared as the number given: a Date rounds (-1e-300 s becomes exactly 1970-01-01).
            if let window, !window.contains(seconds) {
                throw ContractViolation(
                    field: field, rule: "dateRange", "'\(field)' is \(JSONValue.number(seconds)) seconds; accepted: \(window.text)")
            }
            date = Date(timeIntervalSince1970: seconds)
        case .string(let text):
            do {
                date = try DateInput.parse(text, now: now)
            } catch {
                throw ContractViolation(field: field, rule: "date", "'\(field)': \(error.description)")
            }
        default:
            throw ContractViolation(field: field, rule: "date", "'\(field)' is a JSON \(value.typeName); expected Unix seconds or an ISO 8601 string")
        }
        if let window, !window.contains(date.timeIntervalSince1970) {
            throw ContractViolation(field: field, rule: "dateRange", "'\(field)' is \(iso(date)); accepted: \(window.text)")
        }
        return date
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
