import Foundation

/// Durations as written in flags, environment variables and the config file: seconds (`90`, `0.5`) or a
/// number with a unit (`45s`, `30m`, `8h`, `1d`).
package enum DurationText {
    /// The seconds `text` stands for; nil when it is not a duration or is negative.
    package static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let scale = units[last]
        let number = scale == nil ? Substring(trimmed) : trimmed.dropLast()
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * (scale ?? 1)
    }

    /// How a default is shown in help: whole hours as `8h`, anything else in seconds (`60s`, `0.5s`).
    package static func text(_ seconds: TimeInterval) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(seconds)s"
    }

    /// The seconds in each unit a number may end with; a number without one is in seconds.
    private static let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The accepted forms, for error messages.
    package static let forms = "seconds (90, 0.5) or a number with a unit: 45s, 30m, 8h, 1d"
}
