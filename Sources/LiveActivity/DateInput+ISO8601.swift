import Foundation

extension DateInput {
    /// An RFC 3339 date and time, `YYYY-MM-DDTHH:MM:SS`, then an optional fraction of a second (any number
    /// of digits, read to the nanosecond), then `Z` or an offset `±HH:MM` (or `±HHMM`); nil for any other
    /// text. Read here byte by byte, not by Foundation's `ISO8601DateFormatter`: ICU, under it, crashed the
    /// process (SIGFPE) on a fraction of 40 digits that a fuzzer sent as a `staleDate`. A day past the
    /// month's end (`02-30`) rolls over, as Foundation's did; ``parse(_:now:)`` refuses it.
    static func iso8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(at start: Int, digits: Int) -> Int? {
            guard start >= 0, start + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + digits] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool {
            index < bytes.count && characters.utf8.contains(bytes[index])
        }
        guard let year = number(at: 0, digits: 4), byte(4, is: "-"), let month = number(at: 5, digits: 2), byte(7, is: "-"),
            let day = number(at: 8, digits: 2), byte(10, is: "Tt"), let hour = number(at: 11, digits: 2), byte(13, is: ":"),
            let minute = number(at: 14, digits: 2), byte(16, is: ":"), let second = number(at: 17, digits: 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var nanoseconds = 0
        if byte(index, is: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, let digit = number(at: index, digits: 1) {
                if digits < 9 { nanoseconds = nanoseconds * 10 + digit }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offsetSeconds = 0
        if byte(index, is: "Zz") {
            index += 1
        } else if byte(index, is: "+-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(at: index + 1, digits: 2), hours < 24 else { return nil }
            let minutesAt = byte(index + 3, is: ":") ? index + 4 : index + 3
            guard let minutes = number(at: minutesAt, digits: 2), minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
            index = minutesAt + 2
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Days from 1970-01-01 to the day, in the proleptic Gregorian calendar (a day past the month's end
    /// counts on into the next month).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Years counted from March, so that February's length only changes the end of a year.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
