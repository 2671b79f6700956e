import Foundation
import GRDB
import Logging
import SkiffCore

/// Keeps the last Home per user in a small SQLite database (GRDB) under the cache directory.
final class CacheStore: CacheStoring {
    private let database: DatabaseQueue
    private let logger: Logger

    /// Opens (or creates) the cache at `file`. What Home shows is personal: the folder and the file are the
    /// user's alone from the start.
    init(file: URL, logger: Logger) throws {
        if let notice = try PrivateFolder.prepare(file.deletingLastPathComponent()) { logger.notice("\(notice)") }
        try PrivateFile.createIfMissing(file)
        database = try DatabaseQueue(path: file.path)
        self.logger = logger
        try Self.migrator.migrate(database)
    }

    /// An in-memory cache, for tests.
    init(logger: Logger) throws {
        database = try DatabaseQueue()
        self.logger = logger
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-home") { db in
            try db.create(table: "home") { t in
                t.primaryKey("user_id", .text)
                t.column("snapshot", .blob).notNull()
                t.column("saved_at", .double).notNull()
            }
        }
        return migrator
    }

    func loadHome(userID: String) -> CachedHome? {
        do {
            return try database.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT snapshot, saved_at FROM home WHERE user_id = ?", arguments: [userID])
                else { return nil }
                let data: Data = row["snapshot"]
                let savedAt: Double = row["saved_at"]
                return CachedHome(
                    snapshot: try JSONCoding.decoder.decode(HomeSnapshot.self, from: data),
                    savedAt: Date(timeIntervalSince1970: savedAt)
                )
            }
        } catch {
            logger.warning("Home cache unreadable; ignoring it", metadata: ["error": "\(type(of: error))"])
            return nil
        }
    }

    func saveHome(_ snapshot: HomeSnapshot, userID: String, at date: Date) {
        do {
            let data = try JSONCoding.encoder.encode(snapshot)
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO home (user_id, snapshot, saved_at) VALUES (?, ?, ?)",
                    arguments: [userID, data, date.timeIntervalSince1970]
                )
            }
        } catch {
            logger.warning("Home cache not saved", metadata: ["error": "\(type(of: error))"])
        }
    }

    func clear() {
        do {
            try database.write { db in try db.execute(sql: "DELETE FROM home") }
        } catch {
            logger.warning("Home cache not cleared", metadata: ["error": "\(type(of: error))"])
        }
    }
}
