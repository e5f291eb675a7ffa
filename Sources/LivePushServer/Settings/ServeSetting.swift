import Foundation

/// One setting of `livepush serve`, declared once (``ServeSetting/all``): its key, where it may come
/// from, its value's form, its default and help, the values it accepts (checked here, by
/// ``ServerConfiguration/validate()``), and where the value goes in ``ServeSettings``.
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
    /// Stores a value read from `origin` (whose label an error names).
    let store: @Sendable (inout ServeSettings, Value, SettingOrigin) throws(ServerConfigurationError) -> Void
    /// The rule the setting's value in `settings` breaks, or nil when it is accepted.
    let refusal: @Sendable (ServeSettings) -> String?

    init(
        key: String, sources: Set<Source>, placeholder: String, help: String, defaultText: String, isSecret: Bool, kind: Kind,
        refusal: @escaping @Sendable (ServeSettings) -> String? = { _ in nil },
        store: @escaping @Sendable (inout ServeSettings, Value, SettingOrigin) throws(ServerConfigurationError) -> Void
    ) {
        self.key = key
        self.sources = sources
        self.placeholder = placeholder
        self.help = help
        self.defaultText = defaultText
        self.isSecret = isSecret
        self.kind = kind
        self.refusal = refusal
        self.store = store
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

// MARK: - Declaring settings

extension ServeSetting {
    static let everywhere: Set<Source> = [.flag, .environment, .file]

    /// A whole number stored at `path`, within `accepted`; its default is read from there.
    static func integer(
        _ key: String, _ path: WritableKeyPath<ServeSettings, Int> & Sendable, placeholder: String = "N", _ accepted: Accepted<Int>,
        help: String
    ) -> ServeSetting {
        ServeSetting(
            key: key, sources: everywhere, placeholder: placeholder, help: help,
            defaultText: "\(ServeSettings()[keyPath: path])", isSecret: false, kind: .integer, refusal: accepted.refusal(of: path)
        ) { settings, value, _ in
            if case .integer(let number) = value { settings[keyPath: path] = number }
        }
    }

    /// A duration in seconds stored at `path`, within `accepted`; its default is read from there.
    static func duration(
        _ key: String, _ path: WritableKeyPath<ServeSettings, TimeInterval> & Sendable, _ accepted: Accepted<TimeInterval>, help: String
    ) -> ServeSetting {
        ServeSetting(
            key: key, sources: everywhere, placeholder: "D", help: help,
            defaultText: DurationText.text(ServeSettings()[keyPath: path]), isSecret: false, kind: .duration,
            refusal: accepted.refusal(of: path)
        ) { settings, value, _ in
            if case .seconds(let seconds) = value { settings[keyPath: path] = seconds }
        }
    }

    /// A switch stored at `path` (off by default); `--flag` alone turns it on.
    static func boolean(_ key: String, _ path: WritableKeyPath<ServeSettings, Bool> & Sendable, help: String) -> ServeSetting {
        ServeSetting(
            key: key, sources: everywhere, placeholder: "true|false", help: help,
            defaultText: "\(ServeSettings()[keyPath: path])", isSecret: false, kind: .boolean
        ) { settings, value, _ in
            if case .boolean(let on) = value { settings[keyPath: path] = on }
        }
    }

    /// The value of a boolean setting given as text (a flag or an environment variable).
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: return nil
        }
    }

    /// A string stored at `path`; its default is read from there.
    static func text(_ key: String, _ path: WritableKeyPath<ServeSettings, String> & Sendable, placeholder: String, help: String) -> ServeSetting {
        parsed(key, path, placeholder: placeholder, help: help, defaultText: ServeSettings()[keyPath: path]) { raw, _ in raw }
    }

    /// A string turned into a `Value` by `parse`, which names the origin's label when it refuses it; the
    /// value stored is then held to `accepted`.
    static func parsed<Value>(
        _ key: String, _ path: WritableKeyPath<ServeSettings, Value> & Sendable, sources: Set<Source> = everywhere,
        placeholder: String, help: String, defaultText: String, isSecret: Bool = false, accepted: Accepted<Value> = .any,
        parse: @escaping @Sendable (String, SettingOrigin) throws(ServerConfigurationError) -> Value
    ) -> ServeSetting {
        ServeSetting(
            key: key, sources: sources, placeholder: placeholder, help: help, defaultText: defaultText,
            isSecret: isSecret, kind: .text, refusal: accepted.refusal(of: path)
        ) { settings, value, origin throws(ServerConfigurationError) in
            if case .text(let raw) = value { settings[keyPath: path] = try parse(raw, origin) }
        }
    }

    /// A path, `~` expanded.
    static func path(
        _ key: String, _ path: WritableKeyPath<ServeSettings, String?> & Sendable, sources: Set<Source> = everywhere,
        placeholder: String = "FILE", help: String, defaultText: String = "none"
    ) -> ServeSetting {
        parsed(key, path, sources: sources, placeholder: placeholder, help: help, defaultText: defaultText) { raw, _ in
            NSString(string: raw).expandingTildeInPath
        }
    }

    /// One of a few words, refused with the list of them (for a non-optional value: `parse`'s nil is the refusal).
    static func choice<Value>(
        _ key: String, _ path: WritableKeyPath<ServeSettings, Value> & Sendable, placeholder: String, help: String,
        defaultText: String, accepted: String, parse: @escaping @Sendable (String) -> Value?
    ) -> ServeSetting {
        parsed(key, path, placeholder: placeholder, help: help, defaultText: defaultText) { raw, origin throws(ServerConfigurationError) in
            guard let value = parse(raw) else { throw origin.refusal(raw: raw, expected: accepted) }
            return value
        }
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
