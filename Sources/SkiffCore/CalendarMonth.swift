import Foundation

/// A calendar month in UTC, as `YYYY-MM`: the one place calendar months are worked out, for spending (both sides), the
/// wallet's months of transactions and a card's expiry.
public struct CalendarMonth: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1 to 12.
    public var month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Reads `YYYY-MM` with a year from 1000 to 9999; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 7, parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1000...9999).contains(year), (1...12).contains(month)
        else { return nil }
        self.init(year: year, month: month)
    }

    /// The month `date` falls in, in UTC.
    public init(containing date: Date) {
        let components = Self.calendar.dateComponents([.year, .month], from: date)
        self.init(year: components.year ?? 1970, month: components.month ?? 1)
    }

    public var description: String {
        let yearText = String(year)
        let monthText = String(month)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-"
            + (month < 10 ? "0" : "") + monthText
    }

    /// `2026-10-26` for an instant of the month's 26th day (UTC).
    public func day(of date: Date) -> String {
        let day = Self.calendar.component(.day, from: date)
        return description + (day < 10 ? "-0" : "-") + String(day)
    }

    public var previous: CalendarMonth {
        month == 1 ? CalendarMonth(year: year - 1, month: 12) : CalendarMonth(year: year, month: month - 1)
    }

    /// Its first instant.
    public var start: Date { Self.firstInstant(year: year, month: month) }
    /// The first instant of the month after it.
    public var end: Date { month == 12 ? Self.firstInstant(year: year + 1, month: 1) : Self.firstInstant(year: year, month: month + 1) }

    /// Its instants, `start` up to `end`.
    public var instants: Range<Date> { start..<end }

    private static func firstInstant(year: Int, month: Int) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? Date(timeIntervalSince1970: 0)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()
}
