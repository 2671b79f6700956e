/// What went out of the account in one calendar month (UTC), by category, with what went out over the same days of
/// the month before.
public struct MonthlySpending: Hashable, Sendable, Codable {
    /// One category's spending in one currency, as a positive amount.
    public struct Category: Hashable, Sendable, Codable {
        public var name: String
        public var amount: Money

        public init(name: String, amount: Money) {
            self.name = name
            self.amount = amount
        }
    }

    /// `2026-11`.
    public var month: String
    /// The largest first.
    public var categories: [Category]
    /// One per currency; empty when nothing went out.
    public var totals: [Money]
    /// `2026-10`.
    public var previousMonth: String
    /// The days of `previousMonth` that `previousDaysTotals` covers, as the server chose them: the same days as
    /// `month` has had so far (`1...26` on the 26th), or all of `previousMonth`.
    public var previousDays: ClosedRange<Int>
    /// What went out over `previousDays`, one per currency.
    public var previousDaysTotals: [Money]

    public init(
        month: String, categories: [Category], totals: [Money], previousMonth: String, previousDays: ClosedRange<Int>,
        previousDaysTotals: [Money]
    ) {
        self.month = month
        self.categories = categories
        self.totals = totals
        self.previousMonth = previousMonth
        self.previousDays = previousDays
        self.previousDaysTotals = previousDaysTotals
    }
}
