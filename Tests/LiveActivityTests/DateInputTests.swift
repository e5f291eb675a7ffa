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

    @Test(arguments: ["tomorrow", "+h", "+5mm", "2026-11-22", "2026-11-22 10:00:00", "1685959200.5x", "--5m"])
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
