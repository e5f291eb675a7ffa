import ArgumentParser

/// The command line of `livepush serve`, parsed by swift-argument-parser as every other command's is:
/// one `--flag VALUE` option per setting a flag may give, made from its declaration (``ServeSetting/all``),
/// so the options, their help and the usage errors come from argument-parser and the names from the
/// declarations. The values are kept as given, as text: ``ServeSettings/read(options:environment:)``
/// reads them with the same rules as the environment's and the file's.
package struct ServeOptions: ParsableArguments, CustomReflectable, Sendable {
    /// The text of each setting given on the command line, by key.
    package private(set) var given: [String: String] = [:]

    package init() {}

    package init(given: [String: String]) {
        self.given = given
    }

    /// argument-parser finds a type's options by reflecting on it: one child per setting with a flag,
    /// labelled with the setting's key.
    package var customMirror: Mirror {
        Mirror(self, children: ServeSetting.all.compactMap { setting in setting.option.map { (label: setting.key, value: $0) } })
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        for setting in ServeSetting.all where setting.sources.contains(.flag) {
            given[setting.key] = try container.decode(Option<String?>.self, forKey: SettingKey(stringValue: setting.key)).wrappedValue
        }
    }

    private struct SettingKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension ServeSetting {
    /// The setting's option, nil when no flag gives it: `--port N`; a switch is on alone (`--name`) and
    /// takes `true` or `false` after it. A value may begin with a dash (an API key may).
    var option: Option<String?>? {
        guard sources.contains(.flag) else { return nil }
        let name = NameSpecification.customLong(String(flag.dropFirst(2)))
        let help = ArgumentHelp(helpDescription, valueName: placeholder)
        if kind == .boolean { return Option(wrappedValue: nil, name: name, defaultAsFlag: "true", help: help) }
        return Option(wrappedValue: nil, name: name, parsing: .unconditional, help: help)
    }
}
