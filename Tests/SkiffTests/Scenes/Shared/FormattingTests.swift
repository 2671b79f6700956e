import Foundation
import SkiffCore
import Testing
@testable import Skiff

@Suite("Formatting dates")
struct FormattingTests {
    /// Zones with daylight saving on either hemisphere, half- and quarter-hour offsets, a date-line jump and UTC.
    static let zones = [
        "UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Kathmandu",
        "Pacific/Apia", "America/St_Johns", "Pacific/Chatham",
    ]

    /// A `Formatting` and a Gregorian `Calendar` in the zone.
    static func subjects(_ zone: String) throws -> (Formatting, Calendar) {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return (Formatting(timeZone: timeZone), calendar)
    }

    static func expectSameWallClock(
        _ formatting: Formatting, _ calendar: Calendar, _ date: Date, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let local = formatting.localTime(date)
        #expect(
            [local.year, local.month, local.day, local.hour, local.minute]
                == [expected.year, expected.month, expected.day, expected.hour, expected.minute],
            "\(calendar.timeZone.identifier) at \(date.timeIntervalSince1970)", sourceLocation: sourceLocation)
    }

    @Test("the arithmetic gives Calendar's wall-clock date and time, at random instants from 1583 to 9999", arguments: zones)
    func matchesCalendar(zone: String) throws {
        let (formatting, calendar) = try Self.subjects(zone)
        var random = SplitMix64(seed: 26)
        // Instants around transitions come from the hour boundaries: every random instant is rounded to one in half
        // the draws, where a zone changes its offset.
        for draw in 0..<4_000 {
            var seconds = Double(Int64(bitPattern: random.next()) % 253_000_000_000)
            if seconds < -12_212_553_600 { seconds = -seconds }
            if draw.isMultiple(of: 2) { seconds = (seconds / 3_600).rounded(.down) * 3_600 - Double(draw % 3) }
            seconds += Double(random.next() % 1_000) / 1_000
            Self.expectSameWallClock(formatting, calendar, Date(timeIntervalSince1970: seconds))
        }
    }

    @Test("minute by minute through the days a zone changes its offset, the wall clock is Calendar's", arguments: zones)
    func transitions(zone: String) throws {
        let (formatting, calendar) = try Self.subjects(zone)
        let timeZone = calendar.timeZone
        // Every change of offset from 2010 to 2030 (Samoa's skipped day in 2011 among them), and the day on each side.
        var next = timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 1_262_304_000))
        var changes = 0
        while let change = next, change.timeIntervalSince1970 < 1_893_456_000 {
            let day = (change.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
            for minute in stride(from: day - 86_400, to: day + 2 * 86_400, by: 60) {
                Self.expectSameWallClock(formatting, calendar, Date(timeIntervalSince1970: minute + 59.5))
            }
            changes += 1
            next = timeZone.nextDaylightSavingTimeTransition(after: change)
        }
        #expect(changes > 0 || ["UTC", "Asia/Kolkata", "Asia/Kathmandu"].contains(zone))
    }

    @Test("days, times and list days read as before; before 1583 Calendar answers")
    func wording() throws {
        let newYork: TimeZone = try #require(TimeZone(identifier: "America/New_York"))
        let formatting = Formatting(timeZone: newYork)
        // 2026-11-03 04:05:06 UTC is 23:05 on 2 November in New York.
        let date = Date(timeIntervalSince1970: 1_793_678_706)
        #expect(formatting.shortDay(date) == " 2 Nov")
        #expect(formatting.day(date) == "2 Nov 2026")
        #expect(formatting.time(date) == "23:05")
        #expect(formatting.dayAndTime(date) == "2 Nov 2026 23:05")
        // 1 March 1500 (Julian), which the proleptic arithmetic would call 11 March.
        let julian = Date(timeIntervalSince1970: -14_825_808_000)
        #expect(Formatting(timeZone: .gmt).day(julian) == "1 Mar 1500")
    }
}
