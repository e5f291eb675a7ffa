import Foundation

/// Parses the date forms accepted by the CLI (`--stale-date`, `--dismissal-date`) and the server's API:
/// Unix seconds (`1685959200`), relative to now (`+2h`, `+30m`, `+45s`, `+1d`, `-5m`) and ISO 8601
/// (`2026-11-22T10:00:00Z`, with or without fractional seconds, `Z` or a `±hh:mm` offset).
public enum DateInput {
    static let acceptedForms =
        "Unix seconds (1685959200), a relative time (+2h, +30m, +45s, +1d, -5m) "
        + "or ISO 8601 (2026-11-22T10:00:00Z, 2026-11-22T10:00:00.250Z)"

    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        /// A relative time without a unit, such as `+5`.
        case missingRelativeUnit(String)
        /// A relative time with an unknown unit, such as `+5w`.
        case unknownRelativeUnit(String, unit: Character)
        /// A number too large to be a date.
        case outOfRange(String)
        /// ISO 8601 text naming a day the calendar does not have, such as `2026-02-30`.
        case noSuchDay(String)
        case unrecognized(String)

        public var description: String {
            switch self {
            case .empty:
                return "date is empty; accepted: \(DateInput.acceptedForms)"
            case .missingRelativeUnit(let text):
                return "relative date '\(text)' has no unit; add s, m, h or d (e.g. +30m)"
            case .unknownRelativeUnit(let text, let unit):
                return "relative date '\(text)' has unit '\(unit)'; accepted units: s (seconds), m (minutes), "
                    + "h (hours), d (days)"
            case .outOfRange(let text):
                return "date '\(text)' is out of range; accepted: \(DateInput.acceptedForms)"
            case .noSuchDay(let text):
                return "date '\(text)' names a day that does not exist (check the month's length)"
            case .unrecognized(let text):
                return "'\(text)' is not a date; accepted: \(DateInput.acceptedForms)"
            }
        }
    }

    /// The largest magnitude accepted for Unix seconds or a relative amount (year 5138 in seconds).
    static let maximumSeconds: Double = 100_000_000_000

    /// Parses `text` (surrounding whitespace ignored); relative forms count from `now`.
    public static func parse(_ text: String, now: Date) throws(ParseError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let seconds = Double(trimmed), seconds <= maximumSeconds else { throw .outOfRange(text) }
            return Date(timeIntervalSince1970: seconds)
        }
        if let sign = trimmed.first, sign == "+" || sign == "-" {
            return try relative(trimmed, original: text, now: now)
        }
        if let date = iso8601(trimmed) {
            // 2026-02-30 reads as March 2; a day the month lacks is a mistake to report.
            guard namesARealDay(trimmed) else { throw .noSuchDay(text) }
            return date
        }
        throw .unrecognized(text)
    }

    private static func relative(_ text: String, original: String, now: Date) throws(ParseError) -> Date {
        let sign: Double = text.first == "-" ? -1 : 1
        let rest = text.dropFirst()
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        let unitPart = rest.dropFirst(digits.count)
        guard !digits.isEmpty else { throw .unrecognized(original) }
        guard let unit = unitPart.first else { throw .missingRelativeUnit(original) }
        guard unitPart.count == 1 else { throw .unrecognized(original) }
        let scale: Double
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        default: throw .unknownRelativeUnit(original, unit: unit)
        }
        guard let amount = Double(digits), amount * scale <= maximumSeconds else { throw .outOfRange(original) }
        return now.addingTimeInterval(sign * amount * scale)
    }

    /// Whether the `YYYY-MM-DD` that starts an ISO 8601 text is a day of the proleptic Gregorian calendar.
    private static func namesARealDay(_ text: String) -> Bool {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }
}
