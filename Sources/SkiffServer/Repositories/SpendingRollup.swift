import Foundation

/// The spending rollup: the table `spending_days` holds, per user, UTC day, category and currency, the sum of the
/// debits (`amount_minor < 0`) of `transactions`. Triggers on `transactions` keep it in the same database transaction
/// as every insert, delete or update, whoever makes it; `TransactionRepository.spending` reads it. Both stores use
/// the SQL here, so a day means the same on each.
enum SpendingRollup {
    /// One UTC day in milliseconds.
    static let dayMilliseconds: Int64 = 86_400_000

    /// SQL for the first millisecond of the UTC day holding the millisecond timestamp `column` (floored, so a
    /// moment before 1970 falls in its own day too).
    static func dayStart(of column: String) -> String {
        "(\(column) - ((\(column) % \(dayMilliseconds)) + \(dayMilliseconds)) % \(dayMilliseconds))"
    }

    /// The first instant of the UTC day holding `date`, floored as `dayStart(of:)` floors in SQL (the day a
    /// transfer's daily limit counts from, too).
    static func dayStart(of date: Date) -> Date {
        let milliseconds = date.millisecondsSince1970
        return Date(millisecondsSince1970: milliseconds - ((milliseconds % dayMilliseconds) + dayMilliseconds) % dayMilliseconds)
    }

    /// The days of `previous` (the month before `current`) to compare with `current` as of `now`, in UTC days: from
    /// its first day, as many days as `current` has had by `now`, today included (October 1–26 on November 26); all of
    /// `previous` when it has fewer days (all of February on March 31) or when `now` is not in `current` (a month that
    /// is over). The one place this rule is written.
    static func sameDays(of previous: Range<Date>, as current: Range<Date>, now: Date) -> Range<Date> {
        guard current.contains(now) else { return previous }
        let daysSoFar = dayStart(of: now).millisecondsSince1970 - day(current.lowerBound) + dayMilliseconds
        let end = min(day(previous.lowerBound) + daysSoFar, day(previous.upperBound))
        return previous.lowerBound..<Date(millisecondsSince1970: end)
    }

    /// The rollup's day key for a bound of `spending`, which must be the first instant of a UTC day.
    static func day(_ bound: Date) -> Int64 {
        let milliseconds = bound.millisecondsSince1970
        assert(milliseconds % dayMilliseconds == 0, "spending is kept per UTC day: \(bound) does not start one")
        return milliseconds
    }
}
