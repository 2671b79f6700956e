import Foundation
import PostgresNIO

struct PostgresTransactionRepository: TransactionRepository {
    let database: PostgresDatabase

    /// Keyset paging on the (user_id, created_at DESC, id DESC) index. A search follows `TransactionSearch`: a
    /// short query is matched within the newest rows; a longer one first against the next `nearWalk` rows, then
    /// with ILIKE over the whole account, which the trigram indexes on merchant, category, note and reference serve.
    func page(userID: String, after cursor: TransactionCursor?, query: String?, limit: Int) async throws -> [TransactionRecord] {
        guard let query, !query.isEmpty else {
            return try await fetch(userID: userID, after: cursor, matching: nil, within: nil, limit: limit)
        }
        if TransactionSearch.isShort(query) {
            return try await fetch(
                userID: userID, after: cursor, matching: query, within: TransactionSearch.shortQueryWindow, limit: limit,
                windowBeforeCursor: true
            )
        }
        let near = try await fetch(userID: userID, after: cursor, matching: query, within: TransactionSearch.nearWalk, limit: limit)
        if near.count >= limit { return near }
        return try await fetch(userID: userID, after: cursor, matching: query, within: nil, limit: limit)
    }

    func count(userID: String, upTo limit: Int) async throws -> Int {
        let rows = try await database.rows(
            "SELECT count(*)::BIGINT FROM (SELECT 1 FROM transactions WHERE user_id = \(userID) LIMIT \(limit)) AS counted"
        )
        return try Int(rows.first?.decode(Int64.self) ?? 0)
    }

    /// Up to `limit` of the user's transactions after `cursor` whose merchant, category, note or reference
    /// (`TransactionSearch.columns`) contains `query`, newest first; with `within`, only among the newest `within`
    /// rows (after the cursor, or of all when `windowBeforeCursor`).
    private func fetch(
        userID: String, after cursor: TransactionCursor?, matching query: String?, within window: Int?, limit: Int,
        windowBeforeCursor: Bool = false
    ) async throws -> [TransactionRecord] {
        let columns = "id, user_id, amount_minor, currency, merchant, category, created_at, transfer_id, note, reference"
        let newestFirst = " ORDER BY created_at DESC, id DESC"
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 640, interpolationCount: 10)
        func appendKeyset() {
            guard let cursor else { return }
            sql.appendLiteral(" AND (created_at, id) < (")
            sql.appendInterpolation(cursor.createdAt)
            sql.appendLiteral(", ")
            sql.appendInterpolation(cursor.id)
            sql.appendLiteral(")")
        }
        sql.appendLiteral("SELECT \(columns) FROM ")
        if let window {
            sql.appendLiteral("(SELECT \(columns) FROM transactions WHERE user_id = ")
            sql.appendInterpolation(userID)
            if !windowBeforeCursor { appendKeyset() }
            sql.appendLiteral(newestFirst + " LIMIT ")
            sql.appendInterpolation(window)
            sql.appendLiteral(") AS newest WHERE TRUE")
            if windowBeforeCursor { appendKeyset() }
        } else {
            sql.appendLiteral("transactions WHERE user_id = ")
            sql.appendInterpolation(userID)
            appendKeyset()
        }
        if let query {
            // One ILIKE a column, each served by that column's trigram index (a BitmapOr); a NULL matches nothing.
            let pattern = "%" + LikePattern.escape(query) + "%"
            for (index, column) in TransactionSearch.columns.enumerated() {
                sql.appendLiteral((index == 0 ? " AND (" : " OR ") + column + " ILIKE ")
                sql.appendInterpolation(pattern)
                sql.appendLiteral(#" ESCAPE '\'"#)
            }
            sql.appendLiteral(")")
        }
        sql.appendLiteral(newestFirst + " LIMIT ")
        sql.appendInterpolation(limit)
        return try await database.rows(PostgresQuery(stringInterpolation: sql)).map { row in
            let (id, userID, amountMinor, currency, merchant, category, createdAt, transferID, note, reference) =
                try row.decode((Int64, String, Int64, String, String, String, Int64, String?, String?, String?).self)
            return TransactionRecord(
                id: id, userID: userID, amountMinor: amountMinor, currency: currency, merchant: merchant,
                category: category, createdAt: Date(millisecondsSince1970: createdAt), transferID: transferID,
                note: note, reference: reference
            )
        }
    }

    /// Summed over the rollups as `SpendingPlan` says, by one statement (one snapshot): the months' rows, then the
    /// days', each added to the periods it counts for as on SQLite.
    func spending(userID: String, in periods: [Range<Date>]) async throws -> [[CategorySpendingRecord]] {
        let plan = SpendingPlan(periods: periods)
        let rows = try await database.rows("""
            SELECT \(SpendingPlan.Source.month.rawValue)::BIGINT, month, category, currency, amount_minor
            FROM spending_months WHERE user_id = \(userID) AND month >= \(plan.months.lowerBound)
                AND month < \(plan.months.upperBound)
            UNION ALL
            SELECT \(SpendingPlan.Source.day.rawValue)::BIGINT, day, category, currency, amount_minor
            FROM spending_days WHERE user_id = \(userID) AND day >= \(plan.days.lowerBound) AND day < \(plan.days.upperBound)
            """)
        var sums = SpendingSums(plan, periods: periods.count)
        for row in rows {
            let (source, key, category, currency, amount) = try row.decode((Int64, Int64, String, String, Int64).self)
            guard let source = SpendingPlan.Source(rawValue: source) else { continue }
            try sums.add(source, key: key, category: category, currency: currency, amountMinor: amount)
        }
        return try sums.records()
    }

    /// One transaction; rows go in batches, each one statement over arrays (`unnest`).
    func insert(userID: String, count: Int, make: @escaping @Sendable (Int) -> NewTransaction) async throws {
        let logger = database.logger
        try await database.transaction { connection in
            for batch in stride(from: 0, to: count, by: Self.batchSize) {
                let items = (batch..<min(batch + Self.batchSize, count)).map(make)
                try await connection.query("""
                    INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                    SELECT \(userID), * FROM unnest(
                        \(items.map(\.amountMinor))::BIGINT[], \(items.map(\.currency))::TEXT[],
                        \(items.map(\.merchant))::TEXT[], \(items.map(\.category))::TEXT[],
                        \(items.map(\.createdAt.millisecondsSince1970))::BIGINT[]
                    )
                    """, logger: logger)
            }
        }
    }

    private static let batchSize = 5_000
}
