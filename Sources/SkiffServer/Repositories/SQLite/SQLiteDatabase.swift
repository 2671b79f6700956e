import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite database: one file in WAL mode (a GRDB `DatabasePool`), migrated on open.
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
        if migrating { try Self.migrator.migrate(pool) }
    }

    func pendingMigrations() async throws -> [String] {
        let migrator = Self.migrator
        return try await metered.read { db in
            let applied = try migrator.appliedIdentifiers(db)
            return migrator.migrations.filter { !applied.contains($0) }
        }
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

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            for statement in BaseSchema.statements(bytes: "BLOB", transactionID: "id INTEGER PRIMARY KEY") {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v2-code-limits") { db in
            try db.execute(sql: """
                ALTER TABLE verifications ADD COLUMN requested_by TEXT;
                CREATE INDEX verifications_requested_by ON verifications(requested_by, created_at);
                CREATE TABLE code_failures (
                    phone TEXT NOT NULL,
                    failed_at INTEGER NOT NULL
                );
                CREATE INDEX code_failures_phone ON code_failures(phone, failed_at);
                """)
        }
        migrator.registerMigration("v3-card-freeze") { db in
            try db.execute(sql: "ALTER TABLE cards ADD COLUMN frozen INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v4-spending") { db in
            try db.execute(sql: """
                CREATE INDEX transactions_user_spending
                    ON transactions(user_id, created_at, category, currency, amount_minor) WHERE amount_minor < 0;
                """)
        }
        migrator.registerMigration("v6-search") { db in
            // Search (issue 10): a trigram index over merchant and category, kept in step by triggers. The FTS
            // table holds no copy of the text (content=transactions), only the index.
            try db.execute(sql: """
                CREATE VIRTUAL TABLE transactions_search USING fts5(
                    merchant, category, content='transactions', content_rowid='id', tokenize='trigram'
                );
                INSERT INTO transactions_search(transactions_search) VALUES ('rebuild');
                CREATE TRIGGER transactions_search_insert AFTER INSERT ON transactions BEGIN
                    INSERT INTO transactions_search(rowid, merchant, category) VALUES (new.id, new.merchant, new.category);
                END;
                CREATE TRIGGER transactions_search_delete AFTER DELETE ON transactions BEGIN
                    INSERT INTO transactions_search(transactions_search, rowid, merchant, category)
                        VALUES ('delete', old.id, old.merchant, old.category);
                END;
                CREATE TRIGGER transactions_search_update AFTER UPDATE OF id, merchant, category ON transactions BEGIN
                    INSERT INTO transactions_search(transactions_search, rowid, merchant, category)
                        VALUES ('delete', old.id, old.merchant, old.category);
                    INSERT INTO transactions_search(rowid, merchant, category) VALUES (new.id, new.merchant, new.category);
                END;
                """)
        }
        migrator.registerMigration("v7-code-replay") { db in
            // Issue 11: who consumed a code (a keyed hash of the request's Idempotency-Key), so the same request
            // retried after a lost answer is answered again.
            try db.execute(sql: "ALTER TABLE verifications ADD COLUMN consumed_by TEXT")
        }
        migrator.registerMigration("v8-session-lock") { db in
            // Issue 23: a session locked by its app or by the server's idle lock, until its password is given again.
            try db.execute(sql: "ALTER TABLE sessions ADD COLUMN locked_at INTEGER")
        }
        migrator.registerMigration("v9-code-replay-binding") { db in
            // Issue 23: consumed_by now binds the whole request (OneTimeCodeService.replayHash); the earlier values
            // bound the Idempotency-Key alone, so they end.
            try db.execute(sql: "UPDATE verifications SET consumed_by = NULL WHERE consumed_by IS NOT NULL")
            // And for the purge (SQLiteDatabase.purge): when a number's failure count last grew, and the ages the
            // purge reads.
            try db.execute(sql: """
                ALTER TABLE login_throttle ADD COLUMN last_failed_at INTEGER;
                CREATE INDEX verifications_age ON verifications(created_at);
                CREATE INDEX code_failures_age ON code_failures(failed_at);
                CREATE INDEX sessions_expiry ON sessions(expires_at);
                """)
        }
        migrator.registerMigration("v10-code-country") { db in
            // Issue 23: the country code of the number a code went to, for the cap on texts per country code.
            try db.execute(sql: """
                ALTER TABLE verifications ADD COLUMN country_code TEXT;
                CREATE INDEX verifications_country ON verifications(country_code, created_at);
                """)
        }
        migrator.registerMigration("v11-spending-rollup") { db in
            // Issue 25: the spending rollup (`SpendingRollup`), built here from the history and kept from now on by
            // triggers in the transaction of every change to `transactions`. The partial index that summed the
            // month's rows is read by nothing after this, so it goes.
            let day = { (row: String) in SpendingRollup.dayStart(of: "\(row).created_at") }
            try db.execute(sql: rollup(table: "spending_days", column: "day", key: day, counts: debits, history: """
                SELECT user_id, \(day("transactions")) AS day, category, currency, SUM(amount_minor)
                FROM transactions WHERE amount_minor < 0
                GROUP BY user_id, day, category, currency
                """))
            try db.execute(sql: "DROP INDEX transactions_user_spending")
        }
        migrator.registerMigration("v12-ledger") { db in
            // Issue 25: the double-entry ledger (docs/decisions, "ledger"). Every user's balance becomes a wallet
            // account whose opening transfer from the system's opening account explains it, so that from now on each
            // balance is the sum of its postings.
            try db.execute(sql: SQLiteLedgerRepository.schema)
            let now = Date().millisecondsSince1970
            try db.execute(sql: """
                INSERT INTO ledger_accounts (id, kind, currency, balance_minor, created_at)
                    SELECT DISTINCT 'system:opening:' || currency, 'system', currency, 0, ? FROM users;
                INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
                    SELECT 'wallet:' || id || ':' || currency, 'wallet', id, currency, balance_minor, created_at FROM users;
                INSERT INTO transfers (id, reference, kind, from_account, to_account, payee_user_id, amount_minor,
                                       currency, created_at)
                    SELECT 'opening-' || id, 'OPEN-' || id, 'opening', 'system:opening:' || currency,
                           'wallet:' || id || ':' || currency, id, balance_minor, currency, created_at
                    FROM users WHERE balance_minor > 0;
                INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
                    SELECT id, from_account, -amount_minor, created_at FROM transfers WHERE kind = 'opening';
                INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
                    SELECT id, to_account, amount_minor, created_at FROM transfers WHERE kind = 'opening';
                UPDATE ledger_accounts SET balance_minor =
                    (SELECT COALESCE(SUM(amount_minor), 0) FROM postings WHERE account_id = ledger_accounts.id)
                    WHERE kind = 'system';
                ALTER TABLE users DROP COLUMN balance_minor;
                ALTER TABLE transactions ADD COLUMN transfer_id TEXT;
                ALTER TABLE transactions ADD COLUMN note TEXT;
                ALTER TABLE transactions ADD COLUMN reference TEXT;
                """, arguments: [now])
        }
        migrator.registerMigration("v13-topups") { db in
            // Issue 25: top-ups from added cards, each kept with its Idempotency-Key (docs/decisions, "top-ups").
            try db.execute(sql: SQLiteTopUpRepository.schema)
        }
        migrator.registerMigration("v14-events") { db in
            // Issue 26: live events, written by triggers in the transaction of each change (`EventSchema`).
            try db.execute(sql: EventSchema.sqlite)
        }
        migrator.registerMigration("v15-unread-index") { db in
            try db.execute(sql: UnreadNotifications.index)
        }
        migrator.registerMigration("v16-unread-counter") { db in
            for statement in UnreadNotifications.sqlite { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v17-spending-months") { db in
            // The spending rollup per UTC month as well (`SpendingPlan`), kept as the days are; built from the days.
            let month = { (row: String) in
                SpendingRollup.sqliteMonthStart(ofDay: SpendingRollup.dayStart(of: "\(row).created_at"))
            }
            try db.execute(sql: rollup(table: "spending_months", column: "month", key: month, counts: debits, history: """
                SELECT user_id, \(SpendingRollup.sqliteMonthStart(ofDay: "day")) AS month, category, currency,
                    SUM(amount_minor)
                FROM spending_days GROUP BY user_id, month, category, currency
                """))
        }
        migrator.registerMigration("v18-search-note-reference") { db in
            // Search matches a transaction's note and its transfer's reference too (`TransactionSearch.columns`): the
            // index of `v6-search` is dropped with its triggers and made again over the four columns, from every row
            // there. The columns are spelled out here, not read from `TransactionSearch`: a migration never changes.
            try db.execute(sql: """
                DROP TRIGGER transactions_search_insert;
                DROP TRIGGER transactions_search_delete;
                DROP TRIGGER transactions_search_update;
                DROP TABLE transactions_search;
                """)
            try db.execute(sql: searchIndex(columns: ["merchant", "category", "note", "reference"]))
        }
        migrator.registerMigration("v19-spending-not-transfers") { db in
            // Issue 42: money sent to another person is not spending (`SpendingRollup.isSpending`). Both rollups lose
            // their triggers and rows, are filled again from the history by the rule, and are kept by it from now on.
            let counts = { (row: String) in SpendingRollup.isSpending(row) }
            let day = { (row: String) in SpendingRollup.dayStart(of: "\(row).created_at") }
            let month = { (row: String) in
                SpendingRollup.sqliteMonthStart(ofDay: SpendingRollup.dayStart(of: "\(row).created_at"))
            }
            for table in ["spending_days", "spending_months"] {
                for trigger in ["insert", "delete", "update_old", "update_new"] {
                    try db.execute(sql: "DROP TRIGGER \(table)_\(trigger)")
                }
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try db.execute(sql: """
                INSERT INTO spending_days (user_id, day, category, currency, amount_minor)
                    SELECT user_id, \(day("transactions")) AS day, category, currency, SUM(amount_minor)
                    FROM transactions WHERE \(counts("transactions"))
                    GROUP BY user_id, day, category, currency;
                INSERT INTO spending_months (user_id, month, category, currency, amount_minor)
                    SELECT user_id, \(SpendingRollup.sqliteMonthStart(ofDay: "day")) AS month, category, currency,
                        SUM(amount_minor)
                    FROM spending_days GROUP BY user_id, month, category, currency;
                """)
            try db.execute(sql: rollupTriggers(table: "spending_days", column: "day", key: day, counts: counts))
            try db.execute(sql: rollupTriggers(table: "spending_months", column: "month", key: month, counts: counts))
        }
        return migrator
    }

    /// The FTS5 trigram table `transactions_search` over `columns` of `transactions`, external content (it holds no
    /// copy of the text, only the index), built from the rows there and kept in step by triggers. A NULL column is
    /// indexed as empty text, and the same NULL is given back when its row is deleted. `v18-search-note-reference`
    /// runs it: what it writes for those columns stays as it is.
    private static func searchIndex(columns: [String]) -> String {
        let names = columns.joined(separator: ", ")
        let values = { (row: String) in columns.map { "\(row).\($0)" }.joined(separator: ", ") }
        return """
            CREATE VIRTUAL TABLE transactions_search USING fts5(
                \(names), content='transactions', content_rowid='id', tokenize='trigram'
            );
            INSERT INTO transactions_search(transactions_search) VALUES ('rebuild');
            CREATE TRIGGER transactions_search_insert AFTER INSERT ON transactions BEGIN
                INSERT INTO transactions_search(rowid, \(names)) VALUES (new.id, \(values("new")));
            END;
            CREATE TRIGGER transactions_search_delete AFTER DELETE ON transactions BEGIN
                INSERT INTO transactions_search(transactions_search, rowid, \(names))
                    VALUES ('delete', old.id, \(values("old")));
            END;
            CREATE TRIGGER transactions_search_update AFTER UPDATE OF id, \(names) ON transactions BEGIN
                INSERT INTO transactions_search(transactions_search, rowid, \(names))
                    VALUES ('delete', old.id, \(values("old")));
                INSERT INTO transactions_search(rowid, \(names)) VALUES (new.id, \(values("new")));
            END;
            """
    }

    /// What `v11-spending-rollup` and `v17-spending-months` summed: every debit.
    private static func debits(_ row: String) -> String { "\(row).amount_minor < 0" }

    /// A spending rollup `table` (`SpendingRollup`): per user, `column` (the SQL `key` gives for a row of
    /// `transactions`), category and currency, the sum of the rows `counts` (SQL over `new` or `old`) holds true of;
    /// filled with the rows of the SQL `history` and kept by triggers from then on.
    private static func rollup(
        table: String, column: String, key: @escaping (String) -> String, counts: (String) -> String, history: String
    ) -> String {
        """
        \(SpendingRollup.table(table, column: column, options: " WITHOUT ROWID"));
        INSERT INTO \(table) (user_id, \(column), category, currency, amount_minor)
            \(history);
        \(rollupTriggers(table: table, column: column, key: key, counts: counts))
        """
    }

    /// The triggers that keep rollup `table` in the transaction of every change to `transactions`: a row `counts` holds
    /// true of is added to its key's sum, and taken away again when it is deleted or changed.
    private static func rollupTriggers(
        table: String, column: String, key: @escaping (String) -> String, counts: (String) -> String
    ) -> String {
        // SQLite's `+` turns an integer overflow into a REAL without a word: the sum is checked first, as
        // SUM() checks its own.
        let addChecked = """
            amount_minor = CASE WHEN amount_minor < -9223372036854775808 - excluded.amount_minor
                THEN RAISE(ABORT, 'integer overflow') ELSE amount_minor + excluded.amount_minor END
            """
        let add = { (row: String) in """
            INSERT INTO \(table) (user_id, \(column), category, currency, amount_minor)
                VALUES (\(row).user_id, \(key(row)), \(row).category, \(row).currency, \(row).amount_minor)
                ON CONFLICT (user_id, \(column), category, currency) DO UPDATE SET \(addChecked);
            """
        }
        // Every debit is below zero, so a sum back at zero has no row left under it.
        let remove = { (row: String) in """
            UPDATE \(table) SET amount_minor = amount_minor - \(row).amount_minor
                WHERE user_id = \(row).user_id AND \(column) = \(key(row)) AND category = \(row).category
                    AND currency = \(row).currency;
            DELETE FROM \(table)
                WHERE user_id = \(row).user_id AND \(column) = \(key(row)) AND category = \(row).category
                    AND currency = \(row).currency AND amount_minor = 0;
            """
        }
        return """
            CREATE TRIGGER \(table)_insert AFTER INSERT ON transactions WHEN \(counts("new")) BEGIN
                \(add("new"))
            END;
            CREATE TRIGGER \(table)_delete AFTER DELETE ON transactions WHEN \(counts("old")) BEGIN
                \(remove("old"))
            END;
            CREATE TRIGGER \(table)_update_old
                AFTER UPDATE OF user_id, amount_minor, currency, category, created_at ON transactions
                WHEN \(counts("old")) BEGIN
                \(remove("old"))
            END;
            CREATE TRIGGER \(table)_update_new
                AFTER UPDATE OF user_id, amount_minor, currency, category, created_at ON transactions
                WHEN \(counts("new")) BEGIN
                \(add("new"))
            END;
            """
    }
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
