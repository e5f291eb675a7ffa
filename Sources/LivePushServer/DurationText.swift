import Foundation

/// Durations as written in flags, environment variables and the config file: seconds (`90`, `0.5`) or a
/// number with a unit (`45s`, `30m`, `8h`, `1d`).
public enum DurationText {
    /// The seconds `text` stands for; nil when it is not a duration or is negative.
    public static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let scale: Double
        var number = Substring(trimmed)
        switch last {
        case "s": scale = 1; number = number.dropLast()
        case "m": scale = 60; number = number.dropLast()
        case "h": scale = 3600; number = number.dropLast()
        case "d": scale = 86_400; number = number.dropLast()
        default: scale = 1
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    /// The accepted forms, for error messages.
    public static let forms = "seconds (90, 0.5) or a number with a unit: 45s, 30m, 8h, 1d"
}
