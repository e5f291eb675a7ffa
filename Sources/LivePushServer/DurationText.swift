import Foundation

/// Durations as written in flags, environment variables and the config file: seconds (`90`, `0.5`) or a
/// number with a unit (`45s`, `30m`, `8h`, `1d`).
package enum DurationText {
    /// The seconds `text` stands for; nil when it is not a duration or is negative.
    package static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let scale: Double
        var number = Substring(trimmed)
        switch last {
        case "s":
            scale = 1
            number = number.dropLast()
        case "m":
            scale = 60
            number = number.dropLast()
        case "h":
            scale = 3600
            number = number.dropLast()
        case "d":
            scale = 86_400
            number = number.dropLast()
        default: scale = 1
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    /// How a default is shown in help: whole hours as `8h`, anything else in seconds (`60s`, `0.5s`).
    package static func text(_ seconds: TimeInterval) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(seconds)s"
    }

    /// The accepted forms, for error messages.
    package static let forms = "seconds (90, 0.5) or a number with a unit: 45s, 30m, 8h, 1d"
}
