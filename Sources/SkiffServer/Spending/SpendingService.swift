import Foundation
import SkiffCore

/// A month's spending by category, against the month before and the same days of it, read from the rollups
/// (decision 0176): what Home's chart shows.
struct SpendingService: Sendable {
    let transactions: any TransactionRepository
    let clock: any ServerClock

    /// A month's spending, the previous month's totals, and the totals of the previous month's days that match the
    /// month's so far (`SpendingRollup.sameDays`).
    struct Report: Sendable, Equatable {
        var month: SpendingMonth
        /// What went out in each category and currency, the largest first.
        var categories: [CategorySpendingRecord]
        /// One total per currency, in the order of the currencies' names.
        var totals: [Money]
        var previousMonth: SpendingMonth
        var previousTotals: [Money]
        /// The first and the last of the previous month's same days, as `YYYY-MM-DD`.
        var sameDaysFrom: String
        var sameDaysThrough: String
        var sameDaysTotals: [Money]
    }

    /// The report of `month` (`YYYY-MM`; the current UTC month when nil) for `userID`; 400 on `month` when it is not
    /// one, `amountsTooLarge` when a total does not fit.
    func report(userID: String, month text: String?) async throws -> Report {
        let now = clock.now()
        let month: SpendingMonth
        if let text {
            guard let parsed = SpendingMonth(text) else {
                throw Problem.validation(field: "month", "Give the month as YYYY-MM, such as 2026-11.")
            }
            month = parsed
        } else {
            month = SpendingMonth(containing: now)
        }
        let previous = month.previous
        let sameDays = SpendingRollup.sameDays(of: previous.start..<previous.end, as: month.start..<month.end, now: now)
        let read = try await transactions.spending(
            userID: userID, in: [month.start..<month.end, previous.start..<previous.end, sameDays]
        )
        guard read.count == 3 else { throw Problem.internalError }
        return Report(
            month: month, categories: read[0], totals: try Self.totals(read[0]),
            previousMonth: previous, previousTotals: try Self.totals(read[1]),
            sameDaysFrom: previous.day(of: sameDays.lowerBound),
            sameDaysThrough: previous.day(of: sameDays.upperBound.addingTimeInterval(-1)),
            sameDaysTotals: try Self.totals(read[2])
        )
    }

    /// One total per currency, in the order of the currencies' names; `amountsTooLarge` when one does not fit.
    static func totals(_ categories: [CategorySpendingRecord]) throws -> [Money] {
        try Dictionary(grouping: categories, by: \.currency)
            .map { currency, rows in
                let total = try rows.reduce(Int64(0)) { sum, row in
                    let (added, overflow) = sum.addingReportingOverflow(row.amountMinor)
                    if overflow { throw Problem.amountsTooLarge }
                    return added
                }
                return Money(amountMinor: total, currency: currency)
            }
            .sorted { $0.currency < $1.currency }
    }
}

/// A calendar month in UTC, as `YYYY-MM`.
struct SpendingMonth: Hashable, Sendable, CustomStringConvertible {
    var year: Int
    /// 1 to 12.
    var month: Int

    init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Reads `YYYY-MM` with a year from 1000 to 9999; nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 7, parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1000...9999).contains(year), (1...12).contains(month)
        else { return nil }
        self.init(year: year, month: month)
    }

    /// The month `date` falls in, in UTC.
    init(containing date: Date) {
        let components = Self.calendar.dateComponents([.year, .month], from: date)
        self.init(year: components.year ?? 1970, month: components.month ?? 1)
    }

    var description: String {
        let yearText = String(year)
        let monthText = String(month)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-"
            + (month < 10 ? "0" : "") + monthText
    }

    /// `2026-10-26` for an instant of the month's 26th day (UTC).
    func day(of date: Date) -> String {
        let day = Self.calendar.component(.day, from: date)
        return description + (day < 10 ? "-0" : "-") + String(day)
    }

    var previous: SpendingMonth {
        month == 1 ? SpendingMonth(year: year - 1, month: 12) : SpendingMonth(year: year, month: month - 1)
    }

    /// Its first instant.
    var start: Date { Self.firstInstant(year: year, month: month) }
    /// The first instant of the month after it.
    var end: Date { month == 12 ? Self.firstInstant(year: year + 1, month: 1) : Self.firstInstant(year: year, month: month + 1) }

    private static func firstInstant(year: Int, month: Int) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? Date(timeIntervalSince1970: 0)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()
}
