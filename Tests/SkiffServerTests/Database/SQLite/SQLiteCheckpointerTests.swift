import Foundation
import GRDB
import Testing
@testable import SkiffServer

/// The WAL is checkpointed off the writer, and stays bounded however the writes come.
@Suite("SQLite checkpoints")
struct SQLiteCheckpointerTests {
    @Test("Commits past the threshold are checkpointed on the checkpointer's connection, and the WAL stays bounded")
    func bounded() async throws {
        try await SQLiteDatabase.withTemporary { database in
            try await database.metered.write { db in try db.execute(sql: "CREATE TABLE pages (id INTEGER PRIMARY KEY, body BLOB)") }
            // About eleven pages a commit: 900 commits put about 10,000 frames through the WAL, more than twice the bound.
            let body = Data(repeating: 7, count: 40_000)
            var largest: UInt64 = 0
            for _ in 0..<900 {
                try await database.metered.write { db in
                    try db.execute(sql: "INSERT INTO pages (body) VALUES (?)", arguments: [body])
                }
                largest = max(largest, try Self.walBytes(database))
            }

            // Checkpoints ran on the checkpointer's own connection (SQLite's automatic one never counts there).
            #expect(database.checkpointer.checkpoints > 0)
            // The WAL never passes the waiting bound by more than a commit (eleven pages), however slowly the background
            // checkpoints run: the commit at that bound waits for one still running (without the bounds: 10,000 frames).
            let frame = UInt64(4_096 + 24)
            #expect(largest <= UInt64(SQLiteCheckpointer.waitingThreshold + 12) * frame + 32)
            // Nothing is lost: every row is there.
            #expect(try await database.metered.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pages") } == 900)
        }
    }

    private static func walBytes(_ database: SQLiteDatabase) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: database.pool.path + "-wal")
        return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
    }
}
