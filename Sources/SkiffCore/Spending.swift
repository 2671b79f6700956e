/// What went out of the account in one calendar month (UTC), by category, with the month before's total.
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
    public var previousTotals: [Money]

    public init(month: String, categories: [Category], totals: [Money], previousMonth: String, previousTotals: [Money]) {
        self.month = month
        self.categories = categories
        self.totals = totals
        self.previousMonth = previousMonth
        self.previousTotals = previousTotals
    }
}
