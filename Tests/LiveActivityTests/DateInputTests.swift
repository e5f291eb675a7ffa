import Foundation
import LiveActivity
import Testing

@Suite struct DateInputTests {
    static let now = Fixtures.unix(1_700_000_000)

    @Test func unixSeconds() throws {
        #expect(try DateInput.parse("1685959200", now: Self.now) == Fixtures.unix(1_685_959_200))
        #expect(try DateInput.parse(" 0 ", now: Self.now) == Fixtures.unix(0))
    }

    @Test(arguments: [
        ("+2h", 7200.0), ("+30m", 1800), ("+45s", 45), ("+1d", 86_400), ("-5m", -300), ("+0s", 0),
    ])
    func relative(_ text: String, offset: Double) throws {
        #expect(try DateInput.parse(text, now: Self.now) == Self.now.addingTimeInterval(offset))
    }

    @Test func iso8601WithAndWithoutFractionsAndOffsets() throws {
        let expected = Fixtures.unix(1_795_341_600)  // 2026-11-22T10:00:00Z
        #expect(try DateInput.parse("2026-11-22T10:00:00Z", now: Self.now) == expected)
        let fractional = try DateInput.parse("2026-11-22T10:00:00.250Z", now: Self.now)
        #expect(abs(fractional.timeIntervalSince(expected) - 0.25) < 0.001)
        #expect(try DateInput.parse("2026-11-22T12:00:00+02:00", now: Self.now) == expected)
    }

    /// A fuzzer's `staleDate` with a fraction of 40 digits crashed the server (SIGFPE in ICU, under
    /// Foundation's ISO 8601 formatter); the fraction is read to the nanosecond.
    @Test func aLongFractionIsReadToTheNanosecond() throws {
        let text = "2099-12-30T09:01:13.0546724854592327380621741809544092501205889Z"
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let whole = try #require(utc.date(from: DateComponents(year: 2099, month: 12, day: 30, hour: 9, minute: 1, second: 13)))
        let parsed = try DateInput.parse(text, now: Self.now)
        #expect(abs(parsed.timeIntervalSince(whole) - 0.054_672_485) < 0.000_001)
    }

    /// The hand-written reading against Foundation's writing of the same instants, across four centuries
    /// (leap years, the year 2100, offsets on both sides).
    @Test func iso8601AgreesWithFoundationsFormatting() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SplitMix64(seed: 20_261_129)
        for offset in [0, 5 * 3600 + 30 * 60, -(9 * 3600)] {
            formatter.timeZone = TimeZone(secondsFromGMT: offset)!
            for _ in 0..<500 {
                let milliseconds = Int64.random(in: -1_000_000_000_000...13_000_000_000_000, using: &generator)
                let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                let text = formatter.string(from: date)
                let parsed = try DateInput.parse(text, now: Self.now)
                #expect(abs(parsed.timeIntervalSince(date)) < 0.000_5, "\(text)")
            }
        }
    }

    @Test func iso8601LowercaseAndOffsetsWithoutAColon() throws {
        let expected = Fixtures.unix(1_795_341_600)  // 2026-11-22T10:00:00Z
        #expect(try DateInput.parse("2026-11-22t10:00:00z", now: Self.now) == expected)
        #expect(try DateInput.parse("2026-11-22T12:00:00+0200", now: Self.now) == expected)
        #expect(try DateInput.parse("2026-11-22T04:30:00-05:30", now: Self.now) == expected)
    }

    @Test func daysTheMonthLacksAreRefused() throws {
        // Foundation's ISO 8601 parser would roll these over to the next month.
        for text in ["2026-02-30T00:00:00Z", "2026-04-31T10:00:00Z", "2027-02-29T00:00:00Z"] {
            #expect(throws: DateInput.ParseError.noSuchDay(text)) { try DateInput.parse(text, now: Self.now) }
        }
        #expect(try DateInput.parse("2028-02-29T00:00:00Z", now: Self.now) == Fixtures.unix(1_835_395_200))
        #expect(DateInput.ParseError.noSuchDay("2026-02-30T00:00:00Z").description.contains("does not exist"))
    }

    @Test func emptyIsAnError() {
        #expect(throws: DateInput.ParseError.empty) { try DateInput.parse("  ", now: Self.now) }
    }

    @Test func relativeWithoutUnit() {
        #expect(throws: DateInput.ParseError.missingRelativeUnit("+5")) { try DateInput.parse("+5", now: Self.now) }
        #expect(DateInput.ParseError.missingRelativeUnit("+5").description.contains("add s, m, h or d"))
    }

    @Test func relativeWithUnknownUnit() {
        #expect(throws: DateInput.ParseError.unknownRelativeUnit("+5w", unit: "w")) {
            try DateInput.parse("+5w", now: Self.now)
        }
    }

    @Test(arguments: [
        "tomorrow", "+h", "+5mm", "2026-11-22", "2026-11-22 10:00:00", "1685959200.5x", "--5m", "2026-11-22T10:00:00",
        "2026-11-22T10:00:00.Z", "2026-11-22T24:00:00Z", "2026-11-22T10:60:00Z", "2026-11-22T10:00:00+2:00", "2026-13-01T00:00:00Z",
        "2026-11-22T10:00:00Zjunk", "2026-11-22T10:00:00+24:00", "२०२६-11-22T10:00:00Z",
    ])
    func unrecognized(_ text: String) {
        #expect(throws: DateInput.ParseError.unrecognized(text)) { try DateInput.parse(text, now: Self.now) }
        let description = DateInput.ParseError.unrecognized(text).description
        #expect(description.contains("Unix seconds"))
        #expect(description.contains("+2h"))
        #expect(description.contains("ISO 8601"))
    }

    @Test func outOfRange() {
        #expect(throws: DateInput.ParseError.outOfRange("99999999999999999999")) {
            try DateInput.parse("99999999999999999999", now: Self.now)
        }
        #expect(throws: DateInput.ParseError.outOfRange("+99999999999d")) {
            try DateInput.parse("+99999999999d", now: Self.now)
        }
    }
}

/// A seeded generator, so that a failing instant comes back on the next run.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
