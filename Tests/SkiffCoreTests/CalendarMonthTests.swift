import Foundation
import SkiffCore
import Testing

/// The one calendar month type: spending on both sides, the wallet's months of transactions and card expiry use it.
@Suite("Calendar month")
struct CalendarMonthTests {
    @Test("Reads YYYY-MM only, and writes it back the same")
    func text() {
        #expect(CalendarMonth("2026-11") == CalendarMonth(year: 2026, month: 11))
        #expect(CalendarMonth("2026-11")?.description == "2026-11")
        #expect(CalendarMonth(year: 987, month: 3).description == "0987-03")
        for bad in ["2026-13", "2026-00", "2026-1", "26-11", "2026/11", "2026-11-01", "０２０２-11", "", "999-01", "2026-+1"] {
            #expect(CalendarMonth(bad) == nil, "\(bad)")
        }
    }

    @Test("A month's instants run from its first UTC instant to the next month's, across a year's end")
    func instants() {
        let december = CalendarMonth(year: 2026, month: 12)
        #expect(december.start == Date(timeIntervalSince1970: 1_796_083_200))  // 2026-12-01T00:00:00Z
        #expect(december.end == Date(timeIntervalSince1970: 1_798_761_600))  // 2027-01-01T00:00:00Z
        #expect(december.instants == december.start..<december.end)
        #expect(CalendarMonth(containing: december.end.addingTimeInterval(-0.001)) == december)
        #expect(CalendarMonth(containing: december.end) == CalendarMonth(year: 2027, month: 1))
        #expect(CalendarMonth(year: 2027, month: 1).previous == december)
        #expect(december.day(of: december.start.addingTimeInterval(8 * 86_400)) == "2026-12-09")
    }
}
