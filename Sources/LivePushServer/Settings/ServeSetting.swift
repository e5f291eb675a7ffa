import Foundation

/// One setting of `livepush serve` as its field declares it (``Setting``): its key, where it may come
/// from, its value's form, its default and help, and how its text becomes the field's value. The
/// values it accepts are checked on the field (``ServerConfiguration/validate()``).
///
/// The key is the config file's (`batchSize`); the flag (`--batch-size`) and the environment variable
/// (`LIVEPUSH_BATCH_SIZE`) are derived from it the way swift-configuration derives them, so one name
/// serves all three sources.
package struct ServeSetting: Sendable {
    /// Where a value may come from, in precedence order.
    package enum Source: Int, Sendable, Hashable, Comparable, CaseIterable {
        case flag, environment, file

        package static func < (lhs: Source, rhs: Source) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How a value is read from the providers.
    enum Kind: Sendable {
        /// A string (JSON: a string).
        case text
        /// A whole number (JSON: a number).
        case integer
        /// Seconds or a number with a unit, `DurationText` (JSON: a number of seconds or such a string).
        case duration
        /// `true` or `false` (JSON: a boolean); the flag alone means true.
        case boolean

        /// What a bad value should have been, for error messages.
        var expected: String {
            switch self {
            case .text: return "a string"
            case .integer: return "a whole number"
            case .duration: return "a duration; accepted: \(DurationText.forms)"
            case .boolean: return "true or false"
            }
        }
    }

    /// A value as read, before it is stored.
    enum Value: Sendable {
        case text(String)
        case integer(Int)
        case seconds(TimeInterval)
        case boolean(Bool)

        /// The value itself, for a field of its type.
        var payload: any Sendable {
            switch self {
            case .text(let text): return text
            case .integer(let number): return number
            case .seconds(let seconds): return seconds
            case .boolean(let on): return on
            }
        }
    }

    /// The config file's key, and the base of the flag and environment variable names.
    package let key: String
    /// Where the value may come from (the config file never holds development API keys, say).
    package let sources: Set<Source>
    /// The value's form in help: `N`, `D` (a duration), `FILE`, `sandbox|production`.
    package let placeholder: String
    package let help: String
    /// The default, as help shows it.
    package let defaultText: String
    /// Kept out of logs and swift-configuration's access log.
    package let isSecret: Bool
    let kind: Kind
    /// The field's value for a value read from `origin` (whose label an error names).
    let convert: @Sendable (Value, SettingOrigin) throws(ServerConfigurationError) -> any Sendable

    init(
        key: String, sources: Set<Source>, placeholder: String, help: String, defaultText: String, isSecret: Bool, kind: Kind,
        convert: @escaping @Sendable (Value, SettingOrigin) throws(ServerConfigurationError) -> any Sendable = { value, _ in value.payload }
    ) {
        self.key = key
        self.sources = sources
        self.placeholder = placeholder
        self.help = help
        self.defaultText = defaultText
        self.isSecret = isSecret
        self.kind = kind
        self.convert = convert
    }

    /// `--batch-size` for `batchSize`.
    package var flag: String { "--" + Self.words(of: key).joined(separator: "-") }

    /// `LIVEPUSH_BATCH_SIZE` for `batchSize`.
    package var environmentVariable: String {
        (["LIVEPUSH"] + Self.words(of: key).map { $0.uppercased() }).joined(separator: "_")
    }

    /// The lowercase words of a camel-case key: a new word starts at an uppercase letter after a lowercase one.
    static func words(of key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in key {
            if character.isUppercase, let previous, previous.isLowercase {
                words.append(current)
                current = ""
            }
            current.append(contentsOf: character.lowercased())
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

// MARK: - Where a value came from

/// The source a setting's value was read from, for error messages: `--port`, `$LIVEPUSH_PORT`, or
/// `'port' in /etc/livepush.json`.
package enum SettingOrigin: Sendable, Hashable {
    case flag(String, raw: String)
    case environment(String, raw: String)
    case file(key: String, path: String)

    package var label: String {
        switch self {
        case .flag(let flag, _): return flag
        case .environment(let variable, _): return "$" + variable
        case .file(let key, let path): return "'\(key)' in \(path)"
        }
    }

    /// "`label` 'raw' is not `expected`" (a file's value shows only its key: it may be any JSON).
    func refusal(raw: String?, expected: String) -> ServerConfigurationError {
        switch self {
        case .flag(_, let text), .environment(_, let text):
            return ServerConfigurationError(setting: label, rule: "'\(raw ?? text)' is not \(expected)")
        case .file:
            if let raw { return ServerConfigurationError(setting: label, rule: "'\(raw)' is not \(expected)") }
            return ServerConfigurationError(setting: label, rule: "has the wrong type; expected \(expected)")
        }
    }
}
