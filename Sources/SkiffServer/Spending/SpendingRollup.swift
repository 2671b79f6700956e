import Foundation
import SkiffAPI

/// The spending rollups: the tables `spending_days` and `spending_months` hold, per user, UTC day (month), category
/// and currency, the sum of the spending (`isSpending`: the debits but money sent to another person) of `transactions`.
/// Triggers on `transactions` keep them in
/// the same database transaction as every insert, delete or update, whoever makes it; `TransactionRepository.spending`
/// reads them (`SpendingPlan`). Both stores use the SQL here, so a day and a month mean the same on each.
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

    /// The categories of statement lines that move money rather than spend it: a transfer between people (the payer's
    /// line is money out, but to a person, not spent) and a top-up from a card (money in).
    static let notSpending = [StatementLine.transferCategory, StatementLine.topUpCategory]

    /// SQL: whether a row of `transactions` is spending: money out (below zero) but in a category of `notSpending`.
    /// `row` qualifies the columns (`new`, `old`), nil for none. The one place the rule is written: the rollups are
    /// kept and rebuilt by it on both stores (migration `spending-not-transfers`); a change to it needs
    /// a new migration of that kind to rebuild them.
    static func isSpending(_ row: String? = nil) -> String {
        let column = { (name: String) in row.map { "\($0).\(name)" } ?? name }
        let excluded = notSpending.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
        return "(\(column("amount_minor")) < 0 AND \(column("category")) NOT IN (\(excluded)))"
    }

    /// The rollup's day key for a bound of `spending`, which must be the first instant of a UTC day.
    static func day(_ bound: Date) -> Int64 {
        let milliseconds = bound.millisecondsSince1970
        assert(milliseconds % dayMilliseconds == 0, "spending is kept per UTC day: \(bound) does not start one")
        return milliseconds
    }
}

// MARK: - Months

extension SpendingRollup {
    /// A rollup table per user, `column` (its day or month key), category and currency, for both stores (SQLite
    /// reads `BIGINT` as an integer column); `options` follows the definition (SQLite's `WITHOUT ROWID`).
    static func table(_ name: String, column: String, options: String = "") -> String {
        """
        CREATE TABLE \(name) (
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            \(column) BIGINT NOT NULL,
            category TEXT NOT NULL,
            currency TEXT NOT NULL,
            amount_minor BIGINT NOT NULL,
            PRIMARY KEY (user_id, \(column), category, currency)
        )\(options)
        """
    }

    /// SQLite's SQL for the month key of the rollup day key `day` (an SQL expression), as `monthStart(ofDay:)`.
    static func sqliteMonthStart(ofDay day: String) -> String {
        "(CAST(strftime('%s', (\(day)) / 1000, 'unixepoch', 'start of month') AS INTEGER) * 1000)"
    }

    /// PostgreSQL's SQL for the month key of the rollup day key `day` (an SQL expression), as `monthStart(ofDay:)`.
    static func postgresMonthStart(ofDay day: String) -> String {
        "(extract(epoch FROM date_trunc('month', to_timestamp((\(day)) / 1000) AT TIME ZONE 'UTC')) * 1000)::BIGINT"
    }

    /// The first millisecond of the UTC month holding the day that starts at `day` (a rollup day key): a month key of
    /// `spending_months`. Proleptic Gregorian arithmetic on days (`InternetDateTranscoder`'s), no calendar, so the
    /// same instant that SQLite's `start of month` and PostgreSQL's `date_trunc('month', …)` give.
    static func monthStart(ofDay day: Int64) -> Int64 {
        let (year, month, _) = InternetDateTranscoder.civil(fromDays: day / dayMilliseconds)
        return InternetDateTranscoder.days(fromYear: year, month: month, day: 1) * dayMilliseconds
    }

    /// The first millisecond of the UTC month after the one holding `day`.
    static func nextMonthStart(ofDay day: Int64) -> Int64 {
        let (year, month, _) = InternetDateTranscoder.civil(fromDays: day / dayMilliseconds)
        let next = month == 12 ? (year + 1, Int64(1)) : (year, month + 1)
        return InternetDateTranscoder.days(fromYear: next.0, month: next.1, day: 1) * dayMilliseconds
    }
}

/// How `TransactionRepository.spending` answers runs of whole UTC days from the two rollups: each month a run covers
/// whole is one row per category and currency of `spending_months`; a month it covers in part is its days from
/// `spending_days`, or, when the days it leaves out are fewer, the month less those days. So a period costs at most
/// about half a month of days (the API's month and month before: none; their same days: at most 15).
struct SpendingPlan: Sendable, Equatable {
    enum Source: Int64, Sendable { case month = 0, day = 1 }

    /// Rows of `source` keyed in `keys` are added to period `period`'s sums, or taken from them.
    struct Term: Sendable, Equatable {
        var period: Int
        var source: Source
        var keys: Range<Int64>
        var subtracts = false
    }

    var terms: [Term] = []
    /// The month keys and the day keys to read: the smallest ranges holding every term's (empty when none).
    var months: Range<Int64> = 0..<0
    var days: Range<Int64> = 0..<0

    /// Bounds must be first instants of UTC days (`SpendingRollup.day`).
    init(periods: [Range<Date>]) {
        for (period, range) in periods.enumerated() {
            let end = SpendingRollup.day(range.upperBound)
            var cursor = SpendingRollup.day(range.lowerBound)
            while cursor < end {
                let monthStart = SpendingRollup.monthStart(ofDay: cursor), monthEnd = SpendingRollup.nextMonthStart(ofDay: cursor)
                let covered = cursor..<min(end, monthEnd)
                let inside = covered.upperBound - covered.lowerBound, outside = monthEnd - monthStart - inside
                if inside <= outside {
                    terms.append(Term(period: period, source: .day, keys: covered))
                } else {
                    terms.append(Term(period: period, source: .month, keys: monthStart..<monthEnd))
                    for left in [monthStart..<covered.lowerBound, covered.upperBound..<monthEnd] where !left.isEmpty {
                        terms.append(Term(period: period, source: .day, keys: left, subtracts: true))
                    }
                }
                cursor = covered.upperBound
            }
        }
        months = Self.hull(terms.filter { $0.source == .month }.map(\.keys))
        days = Self.hull(terms.filter { $0.source == .day }.map(\.keys))
    }

    private static func hull(_ ranges: [Range<Int64>]) -> Range<Int64> {
        guard let lower = ranges.map(\.lowerBound).min(), let upper = ranges.map(\.upperBound).max() else { return 0..<0 }
        return lower..<upper
    }
}

/// The sums of a `SpendingPlan`, fed the rows it reads: per period, one record per category and currency spent in it,
/// the largest first (then by category and currency).
struct SpendingSums {
    /// A sum that does not fit 64 bits (what SQL's `SUM()` refuses as well).
    struct Overflow: Error {}

    private let plan: SpendingPlan
    /// Each (category, currency) gets a slot the first time it is seen: one lookup a row, whatever the periods.
    private var slots: [Key: Int] = [:]
    private var keys: [Key] = []
    /// sums[period][slot], kept negative as the rollups keep them.
    private var sums: [[Sum]]

    init(_ plan: SpendingPlan, periods: Int) {
        self.plan = plan
        sums = [[Sum]](repeating: [], count: periods)
    }

    mutating func add(_ source: SpendingPlan.Source, key: Int64, category: String, currency: String, amountMinor: Int64) throws {
        let slotKey = Key(category: category, currency: currency)
        let slot: Int
        if let known = slots[slotKey] {
            slot = known
        } else {
            slot = keys.count
            slots[slotKey] = slot
            keys.append(slotKey)
            for index in sums.indices { sums[index].append(Sum()) }
        }
        for term in plan.terms where term.source == source && term.keys.contains(key) {
            sums[term.period][slot].add(amountMinor, negated: term.subtracts)
        }
    }

    /// Every debit is below zero, so a sum of zero has no debit under it: it is left out. A period's sum is checked
    /// here, once every row is in: only the total has to fit, whatever the order of the rows.
    func records() throws -> [[CategorySpendingRecord]] {
        try sums.map { period in
            try zip(keys, period).compactMap { key, sum in
                guard let total = sum.exact else { throw Overflow() }
                guard total != 0 else { return nil }
                let (spent, overflow) = Int64(0).subtractingReportingOverflow(total)
                if overflow { throw Overflow() }
                return CategorySpendingRecord(category: key.category, currency: key.currency, amountMinor: spent)
            }
            .sorted { ($1.amountMinor, $0.category, $0.currency) < ($0.amountMinor, $1.category, $1.currency) }
        }
    }

    private struct Key: Hashable {
        var category: String
        var currency: String
    }

    /// An exact sum of Int64s: the wrapped 64-bit value and how many times it wrapped up (+1) or down (−1), so a
    /// total that fits is exact even when a partial sum (a month less its days, added month first) does not.
    struct Sum: Equatable {
        private var value: Int64 = 0
        private var wraps = 0

        /// Adds `amount`, or takes it away when `negated`.
        mutating func add(_ amount: Int64, negated: Bool = false) {
            let (sum, overflow) = negated ? value.subtractingReportingOverflow(amount) : value.addingReportingOverflow(amount)
            if overflow { wraps += (amount < 0) == negated ? 1 : -1 }
            value = sum
        }

        /// The sum, when it fits 64 bits.
        var exact: Int64? { wraps == 0 ? value : nil }
    }
}
