import Foundation
import GRDB

/// SQLite's side of `SchemaMigration`: what each migration runs here, applied by GRDB's `DatabaseMigrator`, which runs
/// each in its own transaction and records its name in `grdb_migrations`.
enum SQLiteMigrations {
    /// What a migration runs on SQLite, inside its transaction.
    typealias Step = @Sendable (Database) throws -> Void

    /// Every migration of `SchemaMigration`, registered under its name in the list's order; one with nothing to do
    /// here runs nothing and is recorded all the same.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in SchemaMigration.allCases {
            let run = step(migration)
            migrator.registerMigration(migration.name) { db in try run?(db) }
        }
        return migrator
    }

    /// Brings the database up to `target` (for a test of a later step over older data; the newest by default): first,
    /// in one transaction, the identifiers of `legacyIdentifiers` become names and a database that has had a migration
    /// this binary does not know is refused (`NewerSchemaError`); then GRDB runs the migrations it lacks, in order.
    static func migrate(_ writer: some DatabaseWriter, upTo target: SchemaMigration = .newest) throws {
        try writer.write { db in try renameLegacyIdentifiers(db) }
        try migrator.migrate(writer, upTo: target.name)
    }

    /// The migrations the database lacks, oldest first (`SchemaMigration.lacking`), reading a legacy identifier as its
    /// name. Reads only.
    static func pending(_ db: Database) throws -> [SchemaMigration] {
        let recorded = try recordedIdentifiers(db)
        let applied = Set(recorded.compactMap { SchemaMigration(rawValue: $0) ?? legacyIdentifiers[$0] })
        return SchemaMigration.lacking(applied: applied, isEmpty: { step($0) == nil })
    }

    /// The identifiers the binaries before one list (docs/decisions/0190) wrote in `grdb_migrations`, and the name
    /// each stands for. A database migrated by them is read through this; `migrate` replaces them with the names.
    /// Fixed: it never changes. (There was never a `v5`; `unread-lock-order` has nothing to do on SQLite.)
    static let legacyIdentifiers: [String: SchemaMigration] = [
        "v1": .base,
        "v2-code-limits": .codeLimits,
        "v3-card-freeze": .cardFreeze,
        "v4-spending": .spendingIndex,
        "v6-search": .search,
        "v7-code-replay": .codeReplay,
        "v8-session-lock": .sessionLock,
        "v9-code-replay-binding": .codeReplayBinding,
        "v10-code-country": .codeCountry,
        "v11-spending-rollup": .spendingRollup,
        "v12-ledger": .ledger,
        "v13-topups": .topUps,
        "v14-events": .events,
        "v15-unread-index": .unreadIndex,
        "v16-unread-counter": .unreadCounter,
        "v17-spending-months": .spendingMonths,
        "v18-search-note-reference": .searchNoteReference,
        "v19-spending-not-transfers": .spendingNotTransfers,
    ]

    /// The identifiers in `grdb_migrations`; none before the table exists.
    private static func recordedIdentifiers(_ db: Database) throws -> Set<String> {
        try db.tableExists("grdb_migrations") ? String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
    }

    /// Records each legacy identifier's name in its place, so that GRDB finds those migrations applied and the table
    /// holds names only (as GRDB's own `registerMigration(_:merging:)` leaves it); refuses an identifier that is
    /// neither a name nor a legacy identifier.
    private static func renameLegacyIdentifiers(_ db: Database) throws {
        let identifiers = try recordedIdentifiers(db)
        let unknown = identifiers.filter { SchemaMigration(rawValue: $0) == nil && legacyIdentifiers[$0] == nil }
        guard unknown.isEmpty else { throw NewerSchemaError(store: "SQLite", unknown: unknown.sorted()) }
        for identifier in identifiers {
            guard let migration = legacyIdentifiers[identifier] else { continue }
            try db.execute(
                sql: "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.name]
            )
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
        }
    }

    /// What `migration` runs on SQLite; nil when it has nothing to do here. A step never changes once released: a
    /// database that had it does not run it again.
    static func step(_ migration: SchemaMigration) -> Step? {
        switch migration {
        case .base:
            return { db in
                for statement in BaseSchema.statements(bytes: "BLOB", transactionID: "id INTEGER PRIMARY KEY") {
                    try db.execute(sql: statement)
                }
            }
        case .codeLimits:
            return { db in
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
        case .cardFreeze:
            return { db in try db.execute(sql: "ALTER TABLE cards ADD COLUMN frozen INTEGER NOT NULL DEFAULT 0") }
        case .spendingIndex:
            return { db in
                try db.execute(sql: """
                    CREATE INDEX transactions_user_spending
                        ON transactions(user_id, created_at, category, currency, amount_minor) WHERE amount_minor < 0;
                    """)
            }
        case .search:
            // Search (issue 10): a trigram index over merchant and category, kept in step by triggers. The FTS
            // table holds no copy of the text (content=transactions), only the index.
            return { db in
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
        case .codeReplay:
            // Issue 11: who consumed a code (a keyed hash of the request's Idempotency-Key), so the same request
            // retried after a lost answer is answered again.
            return { db in try db.execute(sql: "ALTER TABLE verifications ADD COLUMN consumed_by TEXT") }
        case .sessionLock:
            // Issue 23: a session locked by its app or by the server's idle lock, until its password is given again.
            return { db in try db.execute(sql: "ALTER TABLE sessions ADD COLUMN locked_at INTEGER") }
        case .codeReplayBinding:
            return { db in
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
        case .codeCountry:
            // Issue 23: the country code of the number a code went to, for the cap on texts per country code.
            return { db in
                try db.execute(sql: """
                    ALTER TABLE verifications ADD COLUMN country_code TEXT;
                    CREATE INDEX verifications_country ON verifications(country_code, created_at);
                    """)
            }
        case .spendingRollup:
            // Issue 25: the spending rollup (`SpendingRollup`), built here from the history and kept from now on by
            // triggers in the transaction of every change to `transactions`. The partial index that summed the
            // month's rows is read by nothing after this, so it goes.
            return { db in
                let day = { (row: String) in SpendingRollup.dayStart(of: "\(row).created_at") }
                try db.execute(sql: rollup(table: "spending_days", column: "day", key: day, counts: debits, history: """
                    SELECT user_id, \(day("transactions")) AS day, category, currency, SUM(amount_minor)
                    FROM transactions WHERE amount_minor < 0
                    GROUP BY user_id, day, category, currency
                    """))
                try db.execute(sql: "DROP INDEX transactions_user_spending")
            }
        case .ledger:
            // Issue 25: the double-entry ledger (docs/decisions, "ledger"). Every user's balance becomes a wallet
            // account whose opening transfer from the system's opening account explains it, so that from now on each
            // balance is the sum of its postings.
            return { db in
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
        case .topUps:
            // Issue 25: top-ups from added cards, each kept with its Idempotency-Key (docs/decisions, "top-ups").
            return { db in try db.execute(sql: SQLiteTopUpRepository.schema) }
        case .events:
            // Issue 26: live events, written by triggers in the transaction of each change (`EventSchema`).
            return { db in try db.execute(sql: EventSchema.sqlite) }
        case .unreadIndex:
            return { db in try db.execute(sql: UnreadNotifications.index) }
        case .unreadCounter:
            return { db in for statement in UnreadNotifications.sqlite { try db.execute(sql: statement) } }
        case .spendingMonths:
            // The spending rollup per UTC month as well (`SpendingPlan`), kept as the days are; built from the days.
            return { db in
                let month = { (row: String) in
                    SpendingRollup.sqliteMonthStart(ofDay: SpendingRollup.dayStart(of: "\(row).created_at"))
                }
                try db.execute(sql: rollup(table: "spending_months", column: "month", key: month, counts: debits, history: """
                    SELECT user_id, \(SpendingRollup.sqliteMonthStart(ofDay: "day")) AS month, category, currency,
                        SUM(amount_minor)
                    FROM spending_days GROUP BY user_id, month, category, currency
                    """))
            }
        case .unreadLockOrder:
            // Nothing here: on PostgreSQL two transactions took a user's events lock and their counter's row in
            // opposite orders and deadlocked. SQLite's one writer runs one transaction at a time and locks no rows.
            return nil
        case .searchNoteReference:
            // Search matches a transaction's note and its transfer's reference too (`TransactionSearch.columns`): the
            // index of `search` is dropped with its triggers and made again over the four columns, from every row
            // there. The columns are spelled out here, not read from `TransactionSearch`: a migration never changes.
            return { db in
                try db.execute(sql: """
                    DROP TRIGGER transactions_search_insert;
                    DROP TRIGGER transactions_search_delete;
                    DROP TRIGGER transactions_search_update;
                    DROP TABLE transactions_search;
                    """)
                try db.execute(sql: searchIndex(columns: ["merchant", "category", "note", "reference"]))
            }
        case .spendingNotTransfers:
            // Issue 42: money sent to another person is not spending (`SpendingRollup.isSpending`). Both rollups lose
            // their triggers and rows, are filled again from the history by the rule, and are kept by it from now on.
            return { db in
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
        case .cardNetwork:
            // Issue 45: cards and top-ups through a real card network, one account per card.
            return { db in for statement in CardNetworkSchema.statements { try db.execute(sql: statement) } }
        case .stepUpBinding:
            // Issue 45: a proof of the password is good for the transfer it was asked for only.
            return { db in for statement in LedgerSchema.stepUpBinding { try db.execute(sql: statement) } }
        }
    }

    /// The FTS5 trigram table `transactions_search` over `columns` of `transactions`, external content (it holds no
    /// copy of the text, only the index), built from the rows there and kept in step by triggers. A NULL column is
    /// indexed as empty text, and the same NULL is given back when its row is deleted. `search-note-reference` runs
    /// it: what it writes for those columns stays as it is.
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

    /// What `spending-rollup` and `spending-months` summed: every debit.
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
