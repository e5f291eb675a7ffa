import Foundation

/// A setting of `livepush serve`, declared once, on the field that holds it:
///
///     @Setting("port", .from(0...65535), help: "HTTP port (0: any free one).")
///     package var port = 8080
///
/// gives the key (the config file's `port`, whence `--port` and `LIVEPUSH_PORT`), the default (the
/// field's initial value, which help shows), the values it accepts (checked on the field by
/// ``ServerConfiguration/validate()``) and the help. ``ServeSetting/all`` lists the fields of
/// ``ServeSettings`` so declared; ``ServeSettings/read(options:environment:)`` gives each the value its
/// flag, variable or file key holds.
@propertyWrapper
package struct Setting<Value: Sendable>: Sendable {
    package var wrappedValue: Value
    /// Everything but the value: the key, sources, form, default and help.
    package let declaration: ServeSetting
    let accepted: Accepted<Value>

    /// The field's declared default, unless the settings being read give it another value
    /// (``ServeSetting/given``).
    init(wrappedValue: Value, _ declaration: ServeSetting, accepted: Accepted<Value>) {
        if let given = ServeSetting.given[declaration.key], let value = given as? Value {
            self.wrappedValue = value
        } else {
            self.wrappedValue = wrappedValue
        }
        self.declaration = declaration
        self.accepted = accepted
    }
}

/// A ``Setting`` field whatever its value's type: what the reader, the checks and help see of it.
protocol DeclaredSetting: Sendable {
    var declaration: ServeSetting { get }
    /// The rule the field's value breaks, or nil when it is accepted.
    var refusal: String? { get }
}

extension Setting: DeclaredSetting {
    var refusal: String? { accepted.contains(wrappedValue) ? nil : accepted.rule }
}

extension ServeSetting {
    static let everywhere: Set<Source> = [.flag, .environment, .file]

    /// The values of the settings being read, by key: each ``Setting`` field made while they are bound
    /// takes its value from here (``ServeSettings/init(given:)``) instead of its declared default.
    @TaskLocal static var given: [String: any Sendable] = [:]

    /// Every field of `subject` declared with ``Setting``, in declaration order, and those of the
    /// ``ServerConfiguration`` it holds.
    static func declared(in subject: Any) -> [any DeclaredSetting] {
        Mirror(reflecting: subject).children.flatMap { child -> [any DeclaredSetting] in
            if let setting = child.value as? any DeclaredSetting { return [setting] }
            if let nested = child.value as? ServerConfiguration { return declared(in: nested) }
            return []
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
}

// MARK: - Declaring settings

extension Setting where Value == Int {
    /// A whole number within `accepted`.
    init(wrappedValue: Int, _ key: String, placeholder: String = "N", _ accepted: Accepted<Int>, help: String) {
        let declaration = ServeSetting(
            key: key, sources: ServeSetting.everywhere, placeholder: placeholder, help: help, defaultText: "\(wrappedValue)",
            isSecret: false, kind: .integer)
        self.init(wrappedValue: wrappedValue, declaration, accepted: accepted)
    }
}

extension Setting where Value == TimeInterval {
    /// A duration in seconds within `accepted`.
    init(wrappedValue: TimeInterval, _ key: String, _ accepted: Accepted<TimeInterval>, help: String) {
        let declaration = ServeSetting(
            key: key, sources: ServeSetting.everywhere, placeholder: "D", help: help, defaultText: DurationText.text(wrappedValue),
            isSecret: false, kind: .duration)
        self.init(wrappedValue: wrappedValue, declaration, accepted: accepted)
    }
}

extension Setting where Value == Bool {
    /// A switch; `--flag` alone turns it on.
    init(wrappedValue: Bool, _ key: String, help: String) {
        let declaration = ServeSetting(
            key: key, sources: ServeSetting.everywhere, placeholder: "true|false", help: help, defaultText: "\(wrappedValue)",
            isSecret: false, kind: .boolean)
        self.init(wrappedValue: wrappedValue, declaration, accepted: .any)
    }
}

extension Setting where Value == String {
    /// Any text.
    init(wrappedValue: String, _ key: String, placeholder: String, help: String) {
        self.init(wrappedValue: wrappedValue, key, placeholder: placeholder, help: help, defaultText: wrappedValue) { raw, _ in raw }
    }
}

extension Setting where Value == String? {
    /// Text that has no default, held to `accepted`: an ID, a secret.
    init(
        wrappedValue: String?, _ key: String, sources: Set<ServeSetting.Source> = ServeSetting.everywhere, placeholder: String,
        help: String, defaultText: String = "none", isSecret: Bool = false, accepted: Accepted<String?> = .any
    ) {
        self.init(
            wrappedValue: wrappedValue, key, sources: sources, placeholder: placeholder, help: help, defaultText: defaultText,
            isSecret: isSecret, accepted: accepted
        ) { raw, _ in raw }
    }

    /// A path, `~` expanded.
    init(
        wrappedValue: String?, path key: String, sources: Set<ServeSetting.Source> = ServeSetting.everywhere, placeholder: String = "FILE",
        help: String, defaultText: String = "none"
    ) {
        self.init(wrappedValue: wrappedValue, key, sources: sources, placeholder: placeholder, help: help, defaultText: defaultText) {
            raw, _ in NSString(string: raw).expandingTildeInPath
        }
    }
}

extension Setting where Value == [String] {
    /// A development API key: given by its flag or variable only (never in the file), and never shown.
    init(wrappedValue: [String], developmentKey key: String, help: String) {
        self.init(
            wrappedValue: wrappedValue, key, sources: [.flag, .environment], placeholder: "KEY", help: help, defaultText: "none",
            isSecret: true
        ) { raw, _ in [raw] }
    }
}

extension Setting {
    /// Text that `parse` turns into the field's value, naming the origin's label when it refuses it; the
    /// value is then held to `accepted`.
    init(
        wrappedValue: Value, _ key: String, sources: Set<ServeSetting.Source> = ServeSetting.everywhere, placeholder: String,
        help: String, defaultText: String, isSecret: Bool = false, accepted: Accepted<Value> = .any,
        parse: @escaping @Sendable (String, SettingOrigin) throws(ServerConfigurationError) -> Value
    ) {
        let declaration = ServeSetting(
            key: key, sources: sources, placeholder: placeholder, help: help, defaultText: defaultText, isSecret: isSecret, kind: .text
        ) { value, origin throws(ServerConfigurationError) in
            guard case .text(let raw) = value else { return value.payload }
            return try parse(raw, origin)
        }
        self.init(wrappedValue: wrappedValue, declaration, accepted: accepted)
    }

    /// One of a few words (`choose` gives nil for another), refused with the list of them; for a field
    /// that is not optional (`choose`'s nil is the refusal).
    init(
        wrappedValue: Value, _ key: String, placeholder: String, help: String, defaultText: String, oneOf words: String,
        choose: @escaping @Sendable (String) -> Value?
    ) {
        self.init(wrappedValue: wrappedValue, key, placeholder: placeholder, help: help, defaultText: defaultText) {
            raw, origin throws(ServerConfigurationError) in
            guard let value = choose(raw) else { throw origin.refusal(raw: raw, expected: words) }
            return value
        }
    }
}
