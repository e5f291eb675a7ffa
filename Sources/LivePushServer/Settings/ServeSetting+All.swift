extension ServeSetting {
    /// What help says after the flag: "HTTP port (0: any free one). $LIVEPUSH_PORT, [port]. Default: 8080."
    package var helpDescription: String {
        var names: [String] = []
        if sources.contains(.environment) { names.append("$" + environmentVariable) }
        if sources.contains(.file) { names.append("[\(key)]") }
        var text = help
        if !names.isEmpty { text += " " + names.joined(separator: ", ") + "." }
        if !sources.contains(.file) && key != ServeSetting.config.key { text += " Not read from the config file." }
        return text + " Default: \(defaultText)."
    }
}

extension ServeSetting {
    /// Every setting of `livepush serve`, in the order help lists them: the fields of ``ServeSettings``
    /// and ``ServerConfiguration`` declared with ``Setting``. Each is read from its flag, else its
    /// environment variable, else the `--config` JSON file, else its default
    /// (``ServeSettings/read(options:environment:)``).
    package static let all: [ServeSetting] = $given.withValue([:]) { declared(in: ServeSettings()).map(\.declaration) }

    /// `--config FILE`, read before the others.
    package static var config: ServeSetting { declared("config") }

    /// The setting with this key.
    package static func named(_ key: String) -> ServeSetting? { all.first { $0.key == key } }

    /// The setting with this key, which the code names.
    package static func declared(_ key: String) -> ServeSetting {
        guard let setting = named(key) else { preconditionFailure("no setting '\(key)' is declared") }
        return setting
    }
}
