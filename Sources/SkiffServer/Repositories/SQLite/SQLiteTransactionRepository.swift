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
            let pattern = "%" + Self.escapeLike(query) + "%"
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

    /// Escapes `%`, `_` and `\` so a search matches them literally.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for char in text {
            if char == "%" || char == "_" || char == "\\" { escaped.append("\\") }
            escaped.append(char)
        }
        return escaped
    }
}

struct SQLiteNotificationRepository: NotificationRepository {
    let pool: DatabasePool

    func notifications(userID: String, limit: Int) async throws -> [NotificationRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM notifications WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                arguments: [userID, limit]
            ).map { row in
                NotificationRecord(
                    id: row["id"], userID: row["user_id"], title: row["title"], body: row["body"],
                    createdAt: row.date("created_at"), readAt: row.optionalDate("read_at")
                )
            }
        }
    }

    func unreadCount(userID: String) async throws -> Int {
        try await pool.unsafeRead { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM notifications WHERE user_id = ? AND read_at IS NULL"),
                arguments: [userID]
            ) ?? 0
        }
    }

    func insert(_ notification: NotificationRecord) async throws {
        try await pool.write { db in try Self.insert(notification, db: db) }
    }

    func markRead(id: String, userID: String, at date: Date) async throws -> Bool {
        try await pool.write { db in
            guard try Bool.fetchOne(
                db, sql: "SELECT 1 FROM notifications WHERE id = ? AND user_id = ?", arguments: [id, userID]
            ) != nil else { return false }
            try db.execute(
                sql: "UPDATE notifications SET read_at = coalesce(read_at, ?) WHERE id = ? AND user_id = ?",
                arguments: [date.millisecondsSince1970, id, userID]
            )
            return true
        }
    }

    static func insert(_ notification: NotificationRecord, db: Database) throws {
        try db.execute(
            sql: "INSERT INTO notifications (id, user_id, title, body, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                notification.id, notification.userID, notification.title, notification.body,
                notification.createdAt.millisecondsSince1970, notification.readAt?.millisecondsSince1970,
            ]
        )
    }
}

struct SQLiteIdempotencyRepository: IdempotencyRepository {
    let pool: DatabasePool

    func begin(
        scope: String, key: String, requestHash: String, at date: Date, expiredBefore: Date, abandonedBefore: Date
    ) async throws -> IdempotencyBegin {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM idempotency_keys WHERE created_at < ? OR (status IS NULL AND created_at < ?)",
                arguments: [expiredBefore.millisecondsSince1970, abandonedBefore.millisecondsSince1970]
            )
            if let row = try Row.fetchOne(
                db, sql: "SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?", arguments: [scope, key]
            ) {
                guard row["request_hash"] == requestHash else { return .mismatch }
                guard let status: Int = row["status"] else { return .inFlight }
                return .completed(StoredResponse(
                    status: status, contentType: row["content_type"], location: row["location"], body: row["body"] ?? Data()
                ))
            }
            try db.execute(
                sql: "INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [scope, key, requestHash, date.millisecondsSince1970]
            )
            return .started
        }
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE idempotency_keys SET status = ?, content_type = ?, location = ?, body = ?
                    WHERE scope = ? AND key = ?
                    """,
                arguments: [response.status, response.contentType, response.location, response.body, scope, key]
            )
        }
    }

    func abandon(scope: String, key: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL", arguments: [scope, key]
            )
        }
    }
}
