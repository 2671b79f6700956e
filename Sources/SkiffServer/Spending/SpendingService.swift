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
        var month: CalendarMonth
        /// What went out in each category and currency, the largest first.
        var categories: [CategorySpendingRecord]
        /// One total per currency, in the order of the currencies' names.
        var totals: [Money]
        var previousMonth: CalendarMonth
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
        let month: CalendarMonth
        if let text {
            guard let parsed = CalendarMonth(text) else {
                throw Problem.validation(field: "month", "Give the month as YYYY-MM, such as 2026-11.")
            }
            month = parsed
        } else {
            month = CalendarMonth(containing: now)
        }
        let previous = month.previous
        let sameDays = SpendingRollup.sameDays(of: previous.instants, as: month.instants, now: now)
        let read = try await transactions.spending(userID: userID, in: [month.instants, previous.instants, sameDays])
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
