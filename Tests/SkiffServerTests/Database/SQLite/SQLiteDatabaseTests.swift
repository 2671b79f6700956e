import Foundation
import GRDB
import Testing
@testable import SkiffServer

@Suite("SQLite database")
struct SQLiteDatabaseTests {
    @Test("The writer syncs every commit (synchronous FULL, which GRDB's WAL set-up would leave at NORMAL) and keeps a 64 MiB page cache")
    func writerSettings() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let (synchronous, cache, journal) = try await database.metered.write { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                    try Int.fetchOne(db, sql: "PRAGMA cache_size"),
                    try String.fetchOne(db, sql: "PRAGMA journal_mode")
                )
            }
            #expect(synchronous == 2)
            #expect(cache == -SQLiteDatabase.writerCacheKiB)
            #expect(journal == "wal")
        }
    }
}
