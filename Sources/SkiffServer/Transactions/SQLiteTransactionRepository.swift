import Foundation
import GRDB

struct SQLiteTransactionRepository: TransactionRepository {
    let pool: MeteredPool

    /// Keyset paging on `transactions_user_newest`. A search follows `TransactionSearch`, over merchant, category,
    /// note and reference: a short query is matched within the newest rows; a longer one is first matched against
    /// the next `nearWalk` rows, then, when the FTS5 trigram index `transactions_search` (over the same columns)
    /// finds few rows, those are read and sorted, else the walk goes on.
    func page(userID: String, after cursor: TransactionCursor?, query: String?, limit: Int) async throws -> [TransactionRecord] {
        let keyset = cursor == nil ? "" : " AND (created_at, id) < (?, ?)"
        let indexedKeyset = cursor == nil ? "" : " AND (t.created_at, t.id) < (?, ?)"
        let keysetArguments: StatementArguments = cursor.map { [$0.createdAt, $0.id] } ?? []
        let newestFirst = " ORDER BY created_at DESC, id DESC"
        guard let query, !query.isEmpty else {
            return try await fetch(
                "SELECT \(Self.columns) FROM transactions WHERE user_id = ?" + keyset + newestFirst + " LIMIT ?",
                [userID] + keysetArguments + [limit]
            )
        }
        let pattern = "%" + LikePattern.escape(query) + "%"
        let likeArguments = StatementArguments(Array(repeating: pattern, count: TransactionSearch.columns.count))
        let matches = Self.matches
        if TransactionSearch.isShort(query) {
            return try await fetch(
                "SELECT \(Self.columns) FROM (SELECT * FROM transactions WHERE user_id = ?" + newestFirst + " LIMIT ?) WHERE 1"
                    + keyset + matches + newestFirst + " LIMIT ?",
                [userID, TransactionSearch.shortQueryWindow] + keysetArguments + likeArguments + [limit]
            )
        }
        let walk = "SELECT \(Self.columns) FROM transactions WHERE user_id = ?" + keyset + matches + newestFirst + " LIMIT ?"
        let walkArguments: StatementArguments = [userID] + keysetArguments + likeArguments + [limit]
        let phrase = TransactionSearch.ftsPhrase(query)
        return try await pool.unsafeRead { db in
            let near = try Self.records(
                db,
                "SELECT \(Self.columns) FROM (SELECT * FROM transactions WHERE user_id = ?" + keyset + newestFirst
                    + " LIMIT ?) WHERE 1"
                    + matches + newestFirst + " LIMIT ?",
                [userID] + keysetArguments + [TransactionSearch.nearWalk] + likeArguments + [limit]
            )
            if near.count >= limit { return near }
            let found = try Int.fetchOne(
                db.cachedStatement(sql: """
                    SELECT count(*) FROM (SELECT rowid FROM transactions_search WHERE transactions_search MATCH ? LIMIT ?)
                    """),
                arguments: [phrase, TransactionSearch.sortedMatchesLimit + 1]
            ) ?? 0
            guard found <= TransactionSearch.sortedMatchesLimit else { return try Self.records(db, walk, walkArguments) }
            return try Self.records(
                db,
                "SELECT \(Self.columns(of: "t")) FROM (SELECT rowid AS found FROM transactions_search WHERE transactions_search MATCH ?) AS m"
                    + " CROSS JOIN transactions AS t ON t.id = m.found WHERE t.user_id = ?"
                    + indexedKeyset
                    + " ORDER BY t.created_at DESC, t.id DESC LIMIT ?",
                [phrase, userID] + keysetArguments + [limit]
            )
        }
    }

    func count(userID: String, upTo limit: Int) async throws -> Int {
        try await pool.unsafeRead { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM transactions WHERE user_id = ? LIMIT ?)"),
                arguments: [userID, limit]
            ) ?? 0
        }
    }

    /// One statement (of a few shapes): no transaction around it, and its prepared form is kept.
    private func fetch(_ sql: String, _ arguments: StatementArguments) async throws -> [TransactionRecord] {
        try await pool.unsafeRead { db in try Self.records(db, sql, arguments) }
    }

    /// A row contains the query (bound once per column) in one of `TransactionSearch.columns`; a NULL column
    /// matches nothing.
    private static let matches = " AND ("
        + TransactionSearch.columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")"

    /// What a page reads, in the order `records` takes it.
    private static let columns = columns(of: nil)

    private static func columns(of table: String?) -> String {
        ["id", "user_id", "amount_minor", "currency", "merchant", "category", "created_at", "transfer_id", "note", "reference"]
            .map { (table.map { $0 + "." } ?? "") + $0 }.joined(separator: ", ")
    }

    /// The rows of a query that selects `columns`, read in place by position: copying every row and finding each
    /// column by name (GRDB lowercases the name on every lookup) were about 7 % of a page's CPU under load
    /// (BENCHMARKS.md, issue 25).
    private static func records(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [TransactionRecord] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var records: [TransactionRecord] = []
        while let row = try rows.next() {
            records.append(TransactionRecord(
                id: row[0], userID: row[1], amountMinor: row[2], currency: row[3], merchant: row[4], category: row[5],
                createdAt: Date(millisecondsSince1970: row[6]), transferID: row[7], note: row[8], reference: row[9]
            ))
        }
        return records
    }

    /// Summed over the rollups as `SpendingPlan` says, by one statement (one snapshot): the months' rows, then the
    /// days'. Each row is added to the periods it counts for in Swift, with one lookup a row; SQLite's `GROUP BY` put
    /// every row through a temporary B-tree, once per period.
    func spending(userID: String, in periods: [Range<Date>]) async throws -> [[CategorySpendingRecord]] {
        let plan = SpendingPlan(periods: periods)
        return try await pool.unsafeRead { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT \(SpendingPlan.Source.month.rawValue), month, category, currency, amount_minor
                    FROM spending_months WHERE user_id = ?1 AND month >= ?2 AND month < ?3
                    UNION ALL
                    SELECT \(SpendingPlan.Source.day.rawValue), day, category, currency, amount_minor
                    FROM spending_days WHERE user_id = ?1 AND day >= ?4 AND day < ?5
                    """),
                arguments: [userID, plan.months.lowerBound, plan.months.upperBound, plan.days.lowerBound, plan.days.upperBound]
            )
            var sums = SpendingSums(plan, periods: periods.count)
            while let row = try rows.next() {
                guard let source = SpendingPlan.Source(rawValue: row[0]) else { continue }
                try sums.add(source, key: row[1], category: row[2], currency: row[3], amountMinor: row[4])
            }
            return try sums.records()
        }
    }

    func insert(userID: String, count: Int, make: @escaping @Sendable (Int) -> NewTransaction) async throws {
        try await pool.write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for index in 0..<count {
                let item = make(index)
                statement.setUncheckedArguments([
                    userID, item.amountMinor, item.currency, item.merchant, item.category,
                    item.createdAt.millisecondsSince1970,
                ])
                try statement.execute()
            }
        }
    }
}
