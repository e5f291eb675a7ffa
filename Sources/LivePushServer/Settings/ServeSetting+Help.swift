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
