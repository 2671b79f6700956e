import Foundation
import GRDB
import PostgresNIO
import Testing
@testable import SkiffServer

/// The unread count is a counter per user, kept by triggers: reading it reads one row, however many notifications.
@Suite("Unread notifications")
struct BaseSchemaTests {
    @Test("SQLite reads a user's unread count as one row of the counter, by its key")
    func unreadCountReadsTheCounter() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let plan = try await database.metered.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT \(UnreadNotifications.count(userID: "'u1'"))")
                    .map { row -> String in row["detail"] }
                    .joined(separator: "\n")
            }
            #expect(plan.contains("SEARCH unread_notifications USING INDEX"), "\(plan)")
            #expect(!plan.contains("notifications_unread") && !plan.contains("SCAN notifications"), "\(plan)")
        }
    }

    @Test("The counter follows notifications arriving read and unread, read (once), made unread again and deleted", arguments: TestStore.allCases)
    func counterFollowsChanges(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            _ = try await RepositoryTests().makeUser(repositories, id: "u1", phone: "+12025550100")
            _ = try await RepositoryTests().makeUser(repositories, id: "u2", phone: "+12025550101")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            for index in 0..<5 {
                try await repositories.notifications.insert(NotificationRecord(
                    id: "n\(index)", userID: "u1", title: "t", body: "b", createdAt: now, readAt: index == 4 ? now : nil
                ))
            }
            // The welcome and four unread of the five; the other user's own welcome only.
            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 5)
            #expect(try await repositories.accounts.overview(id: "u2")?.unreadNotifications == 1)

            #expect(try await repositories.notifications.markRead(id: "n0", userID: "u1", at: now))
            #expect(try await repositories.notifications.markRead(id: "n0", userID: "u1", at: now))
            #expect(try await repositories.notifications.markRead(id: "n4", userID: "u1", at: now))
            #expect(try await !repositories.notifications.markRead(id: "n1", userID: "u2", at: now))

            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 4)
            #expect(try await repositories.accounts.overview(id: "u2")?.unreadNotifications == 1)

            // Made unread again, and deleted unread or read (nothing in Skiff does these yet; the triggers count them).
            let steps = [
                ("UPDATE notifications SET read_at = NULL WHERE id = 'n0'", 5),
                ("DELETE FROM notifications WHERE id = 'n1'", 4),
                ("DELETE FROM notifications WHERE id = 'n4'", 4),
            ]
            for (sql, unread) in steps {
                if let sqlite = store as? SQLiteDatabase {
                    try await sqlite.metered.write { db in try db.execute(sql: sql) }
                } else if let postgres = store as? SkiffServer.PostgresDatabase {
                    _ = try await postgres.rows(PostgresQuery(unsafeSQL: sql))
                } else {
                    Issue.record("a store of another kind: \(type(of: store))")
                }
                #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == unread, "\(sql)")
            }
            #expect(try await repositories.accounts.overview(id: "u2")?.unreadNotifications == 1)
        }
    }

    @Test("PostgreSQL: marking a notification read takes the user's events lock before the counter's row, as a payment to them does, so the two never wait for each other in a cycle")
    func lockOrder() async throws {
        try await TestStore.postgres.withFresh { store in
            let postgres = try #require(store as? SkiffServer.PostgresDatabase)
            let repositories = store.repositories
            _ = try await RepositoryTests().makeUser(repositories, id: "u1", phone: "+12025550100")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try await repositories.notifications.insert(NotificationRecord(
                id: "n1", userID: "u1", title: "t", body: "b", createdAt: now, readAt: nil
            ))
            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 2)
            // A payment to u1 holding u1's events lock (its balance event), about to add u1's notification.
            let marked = try await postgres.transaction { connection in
                _ = try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended('skiff_events:' || \("u1"), 0))", logger: TestStore.logger
                )
                let reading = Task { try await repositories.notifications.markRead(id: "n1", userID: "u1", at: now) }
                for _ in 0..<500 {
                    let waiting = try await postgres.rows("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                    if try waiting.first?.decode(Int.self) == 1 { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                // The read waits for the events lock without holding the counter's row: the payment can take it.
                let counter = try await postgres.transaction { other in
                    try await other.query(
                        "SELECT unread FROM unread_notifications WHERE user_id = \("u1") FOR UPDATE NOWAIT", logger: TestStore.logger
                    ).collect().first?.decode(Int.self)
                }
                #expect(counter == 2)
                return reading
            }
            #expect(try await marked.value)
            #expect(try await repositories.accounts.overview(id: "u1")?.unreadNotifications == 1)
        }
    }

    @Test("The migration fills the counter from the notifications already there, and the events' triggers read it")
    func migrationFillsTheCounter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("skiff.sqlite").path
        let before = try SQLiteDatabase(path: path, migrating: false)
        try SQLiteMigrations.migrate(before.pool, upTo: .unreadIndex)
        try await before.pool.write { db in
            // `events`' trigger as this code makes it already reads the counter, which `unread-counter` makes; one
            // migrated before counts the rows, as here. `unread-counter` makes it again.
            try db.execute(sql: "DROP TRIGGER events_notification_created")
            try db.execute(sql: """
                CREATE TRIGGER events_notification_created AFTER INSERT ON notifications BEGIN
                    INSERT INTO events (user_id, kind, unread, created_at) VALUES (NEW.user_id, 'notifications-changed',
                        (SELECT COUNT(*) FROM notifications WHERE user_id = NEW.user_id AND read_at IS NULL), 0);
                END
                """)
        }
        // Each with an unread welcome; then one read and two unread for a.
        // The users as rows (this binary's account repository writes columns later migrations add), each with an
        // unread welcome.
        try await before.pool.write { db in
            for (index, user) in ["a", "b"].enumerated() {
                try db.execute(sql: """
                    INSERT INTO users (id, phone, country_code, national_number, full_name, password_hash, currency, created_at)
                    VALUES (?, ?, '1', ?, 'Sam Carter', 'hash', 'USD', 0)
                    """, arguments: [user, "+1202555010\(index)", "202555010\(index)"])
                try db.execute(
                    sql: "INSERT INTO notifications (id, user_id, title, body, created_at) VALUES (?, ?, 'Welcome', '', 0)",
                    arguments: ["welcome-\(user)", user]
                )
            }
        }
        for (index, read) in [true, false, false].enumerated() {
            try await before.repositories.notifications.insert(NotificationRecord(
                id: "n\(index)", userID: "a", title: "t", body: "b", createdAt: Date(), readAt: read ? Date() : nil
            ))
        }
        try SQLiteMigrations.migrate(before.pool)
        let counts = try await before.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, unread FROM unread_notifications ORDER BY user_id")
                .map { row -> String in "\(row["user_id"] as String)=\(row["unread"] as Int)" }
        }
        #expect(counts == ["a=3", "b=1"])
        let unread = try await before.pool.write { db in
            try db.execute(sql: "INSERT INTO notifications (id, user_id, title, body, created_at) VALUES ('n9', 'a', 't', 'b', 0)")
            return try Int.fetchOne(db, sql: "SELECT unread FROM events WHERE kind = 'notifications-changed' ORDER BY id DESC LIMIT 1")
        }
        #expect(unread == 4)
        let trigger = try await before.pool.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'events_notification_created'")
        }
        #expect(trigger?.contains("unread_notifications") == true)
    }
}
