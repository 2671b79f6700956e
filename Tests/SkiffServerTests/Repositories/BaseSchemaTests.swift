import Foundation
import GRDB
import Testing
@testable import SkiffServer

/// The unread count reads the partial index only: a user's read notifications, however many, are not visited.
@Suite("Unread notifications")
struct BaseSchemaTests {
    @Test("SQLite counts a user's unread notifications from the partial index, not from their rows")
    func unreadCountUsesTheIndex() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let plan = try await database.metered.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT \(UnreadNotifications.count(userID: "'u1'"))")
                    .map { row -> String in row["detail"] }
                    .joined(separator: "\n")
            }
            #expect(plan.contains("USING COVERING INDEX notifications_unread"), "\(plan)")
        }
    }
}
