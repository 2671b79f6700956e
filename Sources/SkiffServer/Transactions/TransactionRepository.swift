import Foundation
import SkiffCore

/// Transactions, newest first.
protocol TransactionRepository: Sendable {
    /// Up to `limit` transactions after `cursor`, newest first, whose merchant, category, note or reference
    /// contains `query` (`TransactionSearch`).
    func page(userID: String, after cursor: TransactionCursor?, query: String?, limit: Int) async throws -> [TransactionRecord]
    /// How many transactions the user has, counting no further than `limit`.
    func count(userID: String, upTo limit: Int) async throws -> Int
    /// Inserts `count` transactions made by `make` in one transaction, with one prepared statement.
    func insert(userID: String, count: Int, make: @escaping @Sendable (Int) -> NewTransaction) async throws
    /// For each of `periods`, what was spent (`SpendingRollup.isSpending`: money out, but not to another person) from its
    /// start until just before its end, summed per category and currency, the largest first (then by category and currency); all of them read by one statement.
    /// Bounds are first instants of UTC days (`CalendarMonth`'s are): the sums are read from the rollups kept per UTC
    /// month and day (`SpendingPlan`), so a whole month costs one row per category and currency and a part of one at
    /// most 15 days' rows, whatever the account's size.
    func spending(userID: String, in periods: [Range<Date>]) async throws -> [[CategorySpendingRecord]]
}
