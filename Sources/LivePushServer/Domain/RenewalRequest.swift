import Foundation
import LiveActivity

/// What an app asks for when it opts an activity into renewal (the registration's `renewal` object):
/// how old the activity may get before its successor is started, and what to start it with.
struct RenewalRequest: Sendable, Hashable {
    /// The shortest `renewBefore`: an activity younger than an hour is not renewed.
    static let minimum: TimeInterval = 3600
    /// The time a start needs before the limit: `renewBefore` is at most the limit less this.
    static let margin: TimeInterval = 300

    var renewBefore: TimeInterval
    var attributes: JSONValue
    var alert: JSONValue

    /// `7h45m`, `7h`, `45m` → seconds; nil for anything else.
    static func seconds(_ text: String) -> TimeInterval? {
        var rest = Substring(text)
        var seconds: TimeInterval = 0
        var parts = 0
        for unit in [("h", 3600.0), ("m", 60.0)] {
            guard let index = rest.firstIndex(of: Character(unit.0)) else { continue }
            guard let number = Int(rest[..<index]), number >= 0 else { return nil }
            seconds += Double(number) * unit.1
            rest = rest[rest.index(after: index)...]
            parts += 1
        }
        return rest.isEmpty && parts > 0 ? seconds : nil
    }

    /// Checks `renewBefore` against the server's limit: the error names the field and the range.
    static func check(_ text: String, maximumActiveDuration: TimeInterval) throws(DomainError) -> TimeInterval {
        let maximum = maximumActiveDuration - margin
        guard let seconds = seconds(text), seconds >= minimum, seconds <= maximum else {
            throw .invalid(
                "renewal.renewBefore", "range",
                "renewBefore '\(text)' must be written like 7h45m and lie between 1h and \(describe(maximum)) (the \(describe(maximumActiveDuration)) limit less 5 minutes for the start to arrive)"
            )
        }
        return seconds
    }

    /// Seconds as `7h55m`.
    static func describe(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h\(minutes % 60)m"
    }
}
