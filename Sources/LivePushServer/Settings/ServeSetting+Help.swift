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

    /// Every setting as `livepush serve --help` lists them, flag and value first, the description
    /// wrapped beside them (ArgumentParser's layout) in lines shorter than `width` (ArgumentParser wraps
    /// its discussion again at the screen width, 80 columns when it cannot tell).
    package static func helpText(width: Int = 80) -> String {
        let column = 26
        return all.map { setting in
            let label = "  \(setting.flag) \(setting.placeholder)"
            let lines = wrap(setting.helpDescription, to: max(20, width - 1 - column))
            let indent = String(repeating: " ", count: column)
            if label.count <= column - 2 {
                let first = label + String(repeating: " ", count: column - label.count) + lines[0]
                return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
            }
            return ([label] + lines.map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Words in lines of at most `columns` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, to columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > columns {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
