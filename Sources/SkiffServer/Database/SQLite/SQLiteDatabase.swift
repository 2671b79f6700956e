import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite database: one file in WAL mode (a GRDB `DatabasePool`), migrated on open (`SQLiteMigrations`).
struct SQLiteDatabase: RepositoryStore {
    let pool: DatabasePool
    /// The pool's connections in use: its readers and its one writer (as many as `threads` can run at once).
    let usage: DatabaseUsage
    /// The WAL's checkpoints, off the writer.
    let checkpointer: SQLiteCheckpointer
    /// Transfers, committed in groups (shared by every `repositories` made from this database).
    let transfers: SQLiteLedgerRepository.TransferCommit
    /// The threads every call to `pool` runs on.
    let threads: SQLiteThreadPools

    /// The writer's page cache, in KiB (SQLite's default is 2,000). A batch of transfers touches more pages than that,
    /// and a page pushed out is read again with `pread` in the same batch: 64 MiB took the writer's CPU a transfer down
    /// about 10 % (BENCHMARKS.md, issue 25). Readers keep the default: a reader's cache is emptied whenever another
    /// connection has written since its last read, which under writes is every read.
    static let writerCacheKiB = 64 * 1024

    /// The writer's `PRAGMA synchronous`: 2, FULL.
    static let synchronous = 2

    /// Opens (creating if needed) the database at `path` and, when `migrating`, runs the migrations.
    init(path: String, migrating: Bool = true) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        // Owner-only from the start: SQLite gives the -wal and -shm files the same permissions as the database.
        try createOwnerOnlyFile(atPath: path)
        // One made earlier, or by someone else, may have been widened since: refused like the key file.
        try OwnerOnlyFile.checkExisting(path, flags: O_RDONLY, "The database")
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        let checkpointer = SQLiteCheckpointer(path: path)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                checkpointer.install(on: db)
                try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
            }
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // FULL: a commit is on the disk (the WAL synced) before anyone is answered, so an acknowledged transfer is
        // never lost to a power cut (docs/decisions/0181-sqlite-commits-synced-before-the-answer.md). Set here, on the
        // one writer: GRDB sets NORMAL when it turns WAL on, after `prepareDatabase`.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(Self.synchronous)") }
        threads = SQLiteThreadPools(readers: configuration.maximumReaderCount)
        // GRDB opens a reader only when a read needs one: the threads bound the connections open at once.
        usage = DatabaseUsage(capacity: threads.reads.count + threads.writes.count)
        self.checkpointer = checkpointer
        transfers = SQLiteLedgerRepository.transferCommit(MeteredPool(pool: pool, usage: usage, threads: threads))
        if migrating { try SQLiteMigrations.migrate(pool) }
    }

    func pendingMigrations() async throws -> [String] {
        try await metered.read { db in try SQLiteMigrations.pending(db).map(\.name) }
    }

    /// The pool as every SQLite call here reaches it: counted in `usage`.
    var metered: MeteredPool { MeteredPool(pool: pool, usage: usage, threads: threads) }

    /// The repositories over this database.
    var repositories: Repositories {
        let pool = metered
        return Repositories(
            accounts: SQLiteAccountRepository(pool: pool),
            sessions: SQLiteSessionRepository(pool: pool),
            verifications: SQLiteVerificationRepository(pool: pool),
            loginThrottle: SQLiteLoginThrottleRepository(pool: pool),
            cards: SQLiteCardRepository(pool: pool),
            transactions: SQLiteTransactionRepository(pool: pool),
            notifications: SQLiteNotificationRepository(pool: pool),
            idempotency: SQLiteIdempotencyRepository(pool: pool),
            ledger: SQLiteLedgerRepository(pool: pool, transfers: transfers),
            topUps: SQLiteTopUpRepository(pool: pool),
            rateWindows: SQLiteRateWindowRepository(pool: pool),
            events: SQLiteEventRepository(pool: pool)
        )
    }

    /// True when no user exists yet.
    func isEmpty() async throws -> Bool {
        try await metered.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") == 0 }
    }

    /// Nothing to release: GRDB closes the pool when the last repository lets go of it.
    func close() async {}
}

extension DatabaseError {
    var isUniqueViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
    }
}

extension Row {
    func date(_ column: String) -> Date { Date(millisecondsSince1970: self[column]) }
    func optionalDate(_ column: String) -> Date? {
        let value: Int64? = self[column]
        return value.map(Date.init(millisecondsSince1970:))
    }
}

/// Creates an empty file at `path` with mode 0600, unless a file is there already.
private func createOwnerOnlyFile(atPath path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
        close(descriptor)
    } else if errno != EEXIST {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
}
