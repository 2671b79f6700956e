import Foundation
import GRDB

struct SQLiteNotificationRepository: NotificationRepository {
    let pool: MeteredPool

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

    func insert(_ notification: NotificationRecord) async throws {
        try await pool.write { db in try SQLiteUnitOfWork(db: db).insert(notification) }
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
}

extension SQLiteUnitOfWork {
    /// Adds `notification` (and, by triggers, its live event and the unread count).
    func insert(_ notification: NotificationRecord) throws {
        // Cached: compiling this insert compiles its triggers too (the events and the unread count).
        try db.cachedStatement(
            sql: "INSERT INTO notifications (id, user_id, title, body, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [
                notification.id, notification.userID, notification.title, notification.body,
                notification.createdAt.millisecondsSince1970, notification.readAt?.millisecondsSince1970,
            ]
        )
    }
}
