import Foundation
import GRDB

struct SQLiteTransactionRepository: TransactionRepository {
    let pool: DatabasePool

    func page(userID: String, after cursor: TransactionCursor?, query: String?, limit: Int) async throws -> [TransactionRecord] {
        var sql = "SELECT * FROM transactions WHERE user_id = ?"
        var arguments: StatementArguments = [userID]
        if let cursor {
            sql += " AND (created_at, id) < (?, ?)"
            arguments += [cursor.createdAt, cursor.id]
        }
        if let query, !query.isEmpty {
            let pattern = "%" + LikePattern.escape(query) + "%"
            sql += " AND (merchant LIKE ? ESCAPE '\\' OR category LIKE ? ESCAPE '\\')"
            arguments += [pattern, pattern]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        arguments += [limit]
        let finalSQL = sql
        let finalArguments = arguments
        // One statement (of four shapes): no transaction around it, and its prepared form is kept.
        return try await pool.unsafeRead { db in
            try Row.fetchAll(db.cachedStatement(sql: finalSQL), arguments: finalArguments).map { row in
                TransactionRecord(
                    id: row["id"], userID: row["user_id"], amountMinor: row["amount_minor"], currency: row["currency"],
                    merchant: row["merchant"], category: row["category"], createdAt: row.date("created_at")
                )
            }
        }
    }

    /// Summed over the partial index `transactions_user_spending`, which covers every column it reads.
    func spending(userID: String, from start: Date, to end: Date) async throws -> [CategorySpendingRecord] {
        try await pool.unsafeRead { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT category, currency, -SUM(amount_minor) AS spent FROM transactions
                    WHERE user_id = ? AND created_at >= ? AND created_at < ? AND amount_minor < 0
                    GROUP BY category, currency ORDER BY spent DESC, category, currency
                    """),
                arguments: [userID, start.millisecondsSince1970, end.millisecondsSince1970]
            ).map { row in
                CategorySpendingRecord(category: row["category"], currency: row["currency"], amountMinor: row["spent"])
            }
        }
    }

    func insert(userID: String, count: Int, make: @Sendable (Int) -> NewTransaction) async throws {
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
