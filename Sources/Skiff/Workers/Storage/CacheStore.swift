import Foundation
import GRDB
import Logging
import SkiffCore

/// Keeps the last Home per user in a small SQLite database (GRDB) under the cache directory.
final class CacheStore: CacheStoring {
    private let database: DatabaseQueue
    private let logger: Logger

    /// Opens (or creates) the cache at `file`. What Home shows is personal: the folder and the file are the
    /// user's alone from the start. A file SQLite cannot use (cut short, overwritten, failing its quick check) is
    /// set aside with its journal files, logged, and an empty cache starts in its place.
    init(file: URL, logger: Logger) throws {
        if let notice = try PrivateFolder.prepare(file.deletingLastPathComponent()) { logger.notice("\(notice)") }
        self.logger = logger
        do {
            database = try Self.open(file)
        } catch let error as DatabaseError {
            let unreadable = UnreadableFile(file: file, setAside: PrivateFile.setAside(file))
            for journal in ["-journal", "-wal", "-shm"] {
                let companion = URL(fileURLWithPath: file.path + journal)
                if FileManager.default.fileExists(atPath: companion.path) { _ = PrivateFile.setAside(companion) }
            }
            logger.warning(
                "The Home cache was unreadable and set aside; starting an empty one",
                metadata: ["file": "\(unreadable)", "error": "\(error.resultCode)"]
            )
            database = try Self.open(file)
        }
    }

    /// Opens and migrates the cache at `file`, first checking that SQLite can read every page of it.
    private static func open(_ file: URL) throws -> DatabaseQueue {
        try PrivateFile.createIfMissing(file)
        let database = try DatabaseQueue(path: file.path)
        let check = try database.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
        guard check == ["ok"] else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check.joined(separator: "; ")) }
        try migrator.migrate(database)
        return database
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
