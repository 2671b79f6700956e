import Foundation
import PostgresNIO

struct PostgresNotificationRepository: NotificationRepository {
    let database: PostgresDatabase

    func notifications(userID: String, limit: Int) async throws -> [NotificationRecord] {
        try await database.rows("""
            SELECT id, user_id, title, body, created_at, read_at FROM notifications WHERE user_id = \(userID)
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """).map { row in
            let (id, userID, title, body, createdAt, readAt) = try row.decode((String, String, String, String, Int64, Int64?).self)
            return NotificationRecord(
                id: id, userID: userID, title: title, body: body, createdAt: Date(millisecondsSince1970: createdAt),
                readAt: readAt.map(Date.init(millisecondsSince1970:))
            )
        }
    }

    func insert(_ notification: NotificationRecord) async throws {
        _ = try await database.write(insertQuery(notification))
    }

    func markRead(id: String, userID: String, at date: Date) async throws -> Bool {
        try await !database.write("""
            UPDATE notifications SET read_at = COALESCE(read_at, \(date.millisecondsSince1970))
            WHERE id = \(id) AND user_id = \(userID) RETURNING id
            """).isEmpty
    }
}

extension PostgresUnitOfWork {
    /// Adds `notification` (and, by triggers, its live event and the unread count).
    func insert(_ notification: NotificationRecord) async throws {
        try await query(insertQuery(notification))
    }
}

private func insertQuery(_ notification: NotificationRecord) -> PostgresQuery {
    """
    INSERT INTO notifications (id, user_id, title, body, created_at, read_at)
    VALUES (\(notification.id), \(notification.userID), \(notification.title), \(notification.body),
            \(notification.createdAt.millisecondsSince1970), \(notification.readAt?.millisecondsSince1970))
    """
}
