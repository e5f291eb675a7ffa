import LiveActivity

/// Resolves alert text the way iOS does: a `loc-key` is looked up in the app's localization table (the
/// key itself is the format when the table has no entry), then `%@` and positional `%1$@` placeholders
/// are filled from `loc-args`; `%%` is a literal percent sign.
enum AlertLocalization {
    /// The text of an alert field given as a plain string or as `{"loc-key":…,"loc-args":[…]}`.
    static func resolve(_ value: JSONValue?, table: [String: String]) -> String? {
        switch value {
        case .string(let text):
            return text
        case .object(let object):
            guard let key = object["loc-key"]?.stringValue else { return nil }
            return format(key: key, arguments: arguments(object["loc-args"]), table: table)
        default:
            return nil
        }
    }

    /// `loc-args` as strings (numbers as iOS prints them).
    static func arguments(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).map { argument in
            switch argument {
            case .string(let text): return text
            case .number(let number):
                return number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
            default: return argument.description
            }
        }
    }

    static func format(key: String, arguments: [String], table: [String: String]) -> String {
        let format = Array(table[key] ?? key)
        var output = ""
        var nextArgument = 0
        var index = 0
        while index < format.count {
            let character = format[index]
            guard character == "%", index + 1 < format.count else {
                output.append(character)
                index += 1
                continue
            }
            if format[index + 1] == "%" {
                output.append("%")
                index += 2
                continue
            }
            if format[index + 1] == "@" {
                output.append(nextArgument < arguments.count ? arguments[nextArgument] : "")
                nextArgument += 1
                index += 2
                continue
            }
            // Positional: %<n>$@
            var cursor = index + 1
            var digits = ""
            while cursor < format.count, let digit = format[cursor].wholeNumberValue, format[cursor].isASCII {
                digits.append(String(digit))
                cursor += 1
            }
            if !digits.isEmpty, cursor + 1 < format.count, format[cursor] == "$", format[cursor + 1] == "@",
                let position = Int(digits), position >= 1
            {
                output.append(position <= arguments.count ? arguments[position - 1] : "")
                index = cursor + 2
                continue
            }
            output.append(character)
            index += 1
        }
        return output
    }
}
