import Foundation
import Logging
import PostgresNIO

/// PostgreSQL's side of `SchemaMigration`: each migration's statements, run in one transaction with its name recorded
/// in `schema_migration_names`, one instance at a time under an advisory lock.
///
/// The binaries before one list (docs/decisions/0190) numbered the steps in `schema_migrations (version)`. That
/// table stays: a database they migrated is read through `legacyVersions`, and every step is still recorded there
/// under its number (`legacyVersion(after:applied:)`), so an instance of such a binary (as in a rolling update) finds
/// the schema it knows current and refuses one past it with its own message.
enum PostgresMigrations {
    /// One step: statements run in one transaction, recorded with its name.
    struct Migration: Sendable {
        var migration: SchemaMigration
        var statements: [String]

        var name: String { migration.name }
    }

    /// The advisory lock every instance takes before it reads or changes the schema.
    static let advisoryLockKey: Int64 = 0x736B_6966_665F_6462 // "skiff_db"

    /// Brings the schema up to `target` (for a test of a later step over older data; the newest by default) while
    /// holding the advisory lock, so instances starting at the same moment migrate one after the other; refuses a
    /// database that has had a migration this binary does not know (`NewerSchemaError`).
    static func migrate(_ client: PostgresClient, logger: Logger, upTo target: SchemaMigration = .newest) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(advisoryLockKey))", logger: logger)
            do {
                try await migrateLocked(connection, logger: logger, upTo: target)
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(advisoryLockKey))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(advisoryLockKey))", logger: logger)
        }
    }

    /// The migrations the database lacks, oldest first (`SchemaMigration.lacking`; all of them on a database that has
    /// neither table yet), reading a legacy number as its names. Reads only: no lock, no table made.
    static func pending(_ client: PostgresClient, logger: Logger) async throws -> [SchemaMigration] {
        let history = try await client.withConnection { connection in try await History(connection, logger: logger) }
        return SchemaMigration.lacking(applied: history.applied, isEmpty: { statements($0).isEmpty })
    }

    /// The numbers the binaries before one list gave the migrations in `schema_migrations`. Fixed: it never changes,
    /// and a migration added after it has no number. Their 1 made the base tables and search's trigram indexes at
    /// once, so it stands for both `base` and `search`.
    static let legacyVersions: [SchemaMigration: Int] = [
        .base: 1, .search: 1, .codeLimits: 2, .cardFreeze: 3, .spendingIndex: 4, .codeReplay: 5, .sessionLock: 6,
        .codeReplayBinding: 7, .codeCountry: 8, .spendingRollup: 9, .ledger: 10, .topUps: 11, .events: 12,
        .unreadIndex: 13, .unreadCounter: 14, .spendingMonths: 15, .unreadLockOrder: 16, .searchNoteReference: 17,
        .spendingNotTransfers: 18,
    ]

    /// The newest number the binaries before one list knew. A migration without a number is recorded in
    /// `schema_migrations` one above it: those binaries refuse a database at a number above theirs.
    static let legacyNewestVersion = 18

    /// What a database records: the names in `schema_migration_names` and the numbers in `schema_migrations`.
    private struct History {
        /// The migrations it has had, by name or by legacy number.
        var applied: Set<SchemaMigration> = []
        /// The recorded names this binary knows.
        var named: Set<SchemaMigration> = []
        /// The recorded names this binary does not know, sorted.
        var unknown: [String] = []

        init(_ connection: PostgresConnection, logger: Logger) async throws {
            var tables = (numbers: false, names: false)
            for try await exists in try await connection.query(
                "SELECT to_regclass('schema_migrations') IS NOT NULL, to_regclass('schema_migration_names') IS NOT NULL",
                logger: logger
            ).decode((Bool, Bool).self) {
                tables = exists
            }
            if tables.names {
                let names = try await connection.query("SELECT name FROM schema_migration_names", logger: logger)
                for try await name in names.decode(String.self) {
                    if let migration = SchemaMigration(rawValue: name) {
                        named.insert(migration)
                    } else {
                        unknown.append(name)
                    }
                }
                unknown.sort()
            }
            var versions = Set<Int>()
            if tables.numbers {
                let numbers = try await connection.query("SELECT version FROM schema_migrations", logger: logger)
                for try await version in numbers.decode(Int.self) { versions.insert(version) }
            }
            applied = named.union(legacyVersions.filter { versions.contains($0.value) }.keys)
        }
    }

    private static func migrateLocked(
        _ connection: PostgresConnection, logger: Logger, upTo target: SchemaMigration
    ) async throws {
        // The numbers, as the binaries before the names made and read them.
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """, logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migration_names (
                name TEXT PRIMARY KEY,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """, logger: logger)
        let history = try await History(connection, logger: logger)
        guard history.unknown.isEmpty else {
            throw NewerSchemaError(store: "PostgreSQL", unknown: history.unknown)
        }
        // A database the numbering binaries migrated, on its first open here (or after one of them migrated it
        // further): the names its numbers stand for.
        let unnamed = history.applied.subtracting(history.named)
        for migration in SchemaMigration.allCases where unnamed.contains(migration) {
            try await connection.query(
                "INSERT INTO schema_migration_names (name) VALUES (\(migration.name)) ON CONFLICT DO NOTHING",
                logger: logger
            )
        }
        var applied = history.applied
        let last = SchemaMigration.allCases.firstIndex(of: target) ?? migrations.count - 1
        for step in migrations[...last] where !applied.contains(step.migration) {
            applied.insert(step.migration)
            let version = legacyVersion(after: step.migration, applied: applied)
            try await connection.withTransaction(logger: logger) { connection in
                for statement in step.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_migration_names (name) VALUES (\(step.name))", logger: logger)
                if let version {
                    try await connection.query(
                        "INSERT INTO schema_migrations (version) VALUES (\(version)) ON CONFLICT DO NOTHING",
                        logger: logger
                    )
                }
            }
            logger.info("migrated PostgreSQL", metadata: ["migration": "\(step.name)"])
        }
    }

    /// The number to record in `schema_migrations` once `migration` is applied, `applied` holding it: its legacy
    /// number when every migration of that number is applied (1 is `base` and `search`), none while one is not; one
    /// above `legacyNewestVersion` for a migration without a number.
    private static func legacyVersion(after migration: SchemaMigration, applied: Set<SchemaMigration>) -> Int? {
        guard let version = legacyVersions[migration] else { return legacyNewestVersion + 1 }
        return legacyVersions.allSatisfy { $0.value != version || applied.contains($0.key) } ? version : nil
    }

    /// Every migration of `SchemaMigration`, in its order, with its statements here.
    static let migrations = SchemaMigration.allCases.map { Migration(migration: $0, statements: statements($0)) }

    /// What `migration` runs on PostgreSQL, in one transaction; empty when it has nothing to do here. A step never
    /// changes once released: a database that had it does not run it again.
    static func statements(_ migration: SchemaMigration) -> [String] {
        switch migration {
        case .base:
            BaseSchema.statements(bytes: "BYTEA", transactionID: "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        case .codeLimits: [
            "ALTER TABLE verifications ADD COLUMN requested_by TEXT",
            "CREATE INDEX verifications_requested_by ON verifications (requested_by, created_at)",
            """
            CREATE TABLE code_failures (
                phone TEXT NOT NULL,
                failed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX code_failures_phone ON code_failures (phone, failed_at)",
        ]
        case .cardFreeze: [
            "ALTER TABLE cards ADD COLUMN frozen BOOLEAN NOT NULL DEFAULT FALSE",
        ]
        case .spendingIndex: [
            """
            CREATE INDEX transactions_user_spending ON transactions (user_id, created_at)
                INCLUDE (category, currency, amount_minor) WHERE amount_minor < 0
            """,
        ]
        // Search over merchant and category: a GIN trigram index on each, which ILIKE '%...%' uses.
        case .search: [
            "CREATE EXTENSION IF NOT EXISTS pg_trgm",
            "CREATE INDEX transactions_merchant_trgm ON transactions USING GIN (merchant gin_trgm_ops)",
            "CREATE INDEX transactions_category_trgm ON transactions USING GIN (category gin_trgm_ops)",
        ]
        case .codeReplay: [
            "ALTER TABLE verifications ADD COLUMN consumed_by TEXT",
        ]
        case .sessionLock: [
            "ALTER TABLE sessions ADD COLUMN locked_at BIGINT",
        ]
        // Issue 23: consumed_by binds the whole request now; the earlier values bound the Idempotency-Key alone.
        // And for the purge: when a failure count last grew, and the ages the purge reads.
        case .codeReplayBinding: [
            "UPDATE verifications SET consumed_by = NULL WHERE consumed_by IS NOT NULL",
            "ALTER TABLE login_throttle ADD COLUMN last_failed_at BIGINT",
            "CREATE INDEX verifications_age ON verifications (created_at)",
            "CREATE INDEX code_failures_age ON code_failures (failed_at)",
            "CREATE INDEX sessions_expiry ON sessions (expires_at)",
        ]
        // Issue 23: the country code of the number a code went to, for the cap on texts per country code.
        case .codeCountry: [
            "ALTER TABLE verifications ADD COLUMN country_code TEXT",
            "CREATE INDEX verifications_country ON verifications (country_code, created_at)",
        ]
        // Issue 25: the spending rollup (`SpendingRollup`), built from the history under a lock that holds
        // writers off until the triggers exist, then kept by statement triggers in the transaction of every change
        // to `transactions` (one grouped upsert per statement, however many rows it wrote). The partial index that
        // summed the month's rows is read by nothing after this, so it goes.
        case .spendingRollup: [
            "LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE",
        ] + SpendingRollups.days.tableAndHistory + [
            SpendingRollups.function([.days]),
            """
            CREATE TRIGGER spending_days_insert AFTER INSERT ON transactions
                REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spending_days_apply()
            """,
            """
            CREATE TRIGGER spending_days_delete AFTER DELETE ON transactions
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spending_days_apply()
            """,
            """
            CREATE TRIGGER spending_days_update AFTER UPDATE ON transactions
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION spending_days_apply()
            """,
            "DROP INDEX transactions_user_spending",
        ]
        // Issue 25: the double-entry ledger (docs/decisions, "ledger"). Every user's balance becomes a wallet
        // account whose opening transfer from the system's opening account explains it.
        case .ledger: PostgresLedgerRepository.schema + [
            """
            INSERT INTO ledger_accounts (id, kind, currency, balance_minor, created_at)
                SELECT DISTINCT 'system:opening:' || currency, 'system', currency, 0,
                       (extract(epoch FROM now()) * 1000)::BIGINT FROM users
            """,
            """
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
                SELECT 'wallet:' || id || ':' || currency, 'wallet', id, currency, balance_minor, created_at FROM users
            """,
            """
            INSERT INTO transfers (id, reference, kind, from_account, to_account, payee_user_id, amount_minor,
                                   currency, created_at)
                SELECT 'opening-' || id, 'OPEN-' || id, 'opening', 'system:opening:' || currency,
                       'wallet:' || id || ':' || currency, id, balance_minor, currency, created_at
                FROM users WHERE balance_minor > 0
            """,
            """
            INSERT INTO postings (transfer_id, account_id, amount_minor, created_at)
                SELECT id, from_account, -amount_minor, created_at FROM transfers WHERE kind = 'opening'
                UNION ALL
                SELECT id, to_account, amount_minor, created_at FROM transfers WHERE kind = 'opening'
            """,
            """
            UPDATE ledger_accounts SET balance_minor =
                (SELECT COALESCE(SUM(amount_minor), 0) FROM postings WHERE account_id = ledger_accounts.id)
                WHERE kind = 'system'
            """,
            "ALTER TABLE users DROP COLUMN balance_minor",
            "ALTER TABLE transactions ADD COLUMN transfer_id TEXT, ADD COLUMN note TEXT, ADD COLUMN reference TEXT",
        ]
        // Issue 25: top-ups from added cards, each kept with its Idempotency-Key (docs/decisions, "top-ups").
        case .topUps: PostgresTopUpRepository.schema
        // Issue 26: live events, written by triggers in the transaction of each change (`EventSchema`).
        case .events: EventSchema.postgres
        // Counting a user's unread notifications without reading every notification of theirs (`UnreadNotifications`).
        case .unreadIndex: [UnreadNotifications.index]
        // A user's unread count kept as a counter, one row read by key (`UnreadNotifications`).
        case .unreadCounter: UnreadNotifications.postgres
        // The spending rollup per UTC month as well (`SpendingPlan`), kept by the same triggers as the days, the
        // months first (`SpendingRollups.function`).
        case .spendingMonths: [
            "LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE",
        ] + SpendingRollups.months.tableAndHistory + [
            SpendingRollups.function([.months, .days]),
        ]
        // A user's events lock before their unread counter's row, in every transaction (`UnreadNotifications`).
        case .unreadLockOrder: UnreadNotifications.postgresLockFirst
        // Search matches a transaction's note and its transfer's reference too (`TransactionSearch.columns`): a
        // trigram index on each, as on merchant and category, so every arm of the ILIKEs' OR is served by an index
        // (a BitmapOr). Partial: most lines have neither, and an ILIKE is never true of a NULL, so the planner takes
        // them for it.
        case .searchNoteReference: [
            "CREATE INDEX transactions_note_trgm ON transactions USING GIN (note gin_trgm_ops) WHERE note IS NOT NULL",
            """
            CREATE INDEX transactions_reference_trgm ON transactions USING GIN (reference gin_trgm_ops)
                WHERE reference IS NOT NULL
            """,
        ]
        // Issue 42: money sent to another person is not spending (`SpendingRollup.isSpending`). Under the lock of
        // `spending-rollup`, both rollups are emptied and filled again from the history by the rule, and the
        // triggers' function keeps them by it from now on.
        case .spendingNotTransfers: [
            "LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE",
            "DELETE FROM spending_months",
            "DELETE FROM spending_days",
            SpendingRollups.days(counting: SpendingRollup.isSpending()).fill,
            SpendingRollups.months(counting: SpendingRollup.isSpending()).fill,
            SpendingRollups.function([
                .months(counting: SpendingRollup.isSpending()), .days(counting: SpendingRollup.isSpending()),
            ]),
        ]
        // Issue 45: cards and top-ups through a real card network, one account per card.
        case .cardNetwork: CardNetworkSchema.statements
        // Issue 45: a proof of the password is good for the transfer it was asked for only.
        case .stepUpBinding: LedgerSchema.stepUpBinding
        }
    }
}

/// The spending rollups on PostgreSQL (`SpendingRollup`): each a table built from the history, then kept by
/// `spending_days_apply()`, which the statement triggers on `transactions` call.
struct SpendingRollups: Sendable {
    var table: String
    var column: String
    /// The SQL of a row's key, given the SQL of its `created_at`.
    var key: @Sendable (String) -> String
    /// The rows that fill it at its migration, before grouping: the days from `transactions`, the months from the days.
    var history: String
    /// The SQL condition on a row of `transactions` (its columns unqualified) that it sums.
    var counted: String

    /// What `spending-rollup` and `spending-months` summed: every debit.
    static let days = days(counting: "amount_minor < 0")
    static let months = months(counting: "amount_minor < 0")

    /// The days, summing the rows of `transactions` that `counted` holds true of.
    static func days(counting counted: String) -> SpendingRollups {
        SpendingRollups(
            table: "spending_days", column: "day", key: { SpendingRollup.dayStart(of: $0) },
            history: """
                SELECT user_id, \(SpendingRollup.dayStart(of: "created_at")), category, currency, SUM(amount_minor)::BIGINT
                FROM transactions WHERE \(counted)
                """,
            counted: counted
        )
    }

    /// The months, filled from the days and kept from the rows of `transactions` that `counted` holds true of.
    static func months(counting counted: String) -> SpendingRollups {
        SpendingRollups(
            table: "spending_months", column: "month",
            key: { SpendingRollup.postgresMonthStart(ofDay: SpendingRollup.dayStart(of: $0)) },
            history: """
                SELECT user_id, \(SpendingRollup.postgresMonthStart(ofDay: "day")), category, currency, SUM(amount_minor)::BIGINT
                FROM spending_days
                """,
            counted: counted
        )
    }

    /// The table, filled from the history (`history`'s rows, grouped).
    var tableAndHistory: [String] { [SpendingRollup.table(table, column: column), fill] }

    /// Fills the table from the history (`history`'s rows, grouped).
    var fill: String {
        """
        INSERT INTO \(table) (user_id, \(column), category, currency, amount_minor)
            \(history)
            GROUP BY 1, 2, 3, 4
        """
    }

    /// The trigger function keeping `rollups`. The sums are BIGINT: SUM's NUMERIC cast back, and `+`, raise on
    /// overflow. Rows go in key order and `rollups` in the order given, coarsest first (months, then days), so a
    /// statement locks a month's row before any of its days': a one-statement writer (a transfer) waits, if at all,
    /// before it holds a rollup row, whatever the other writer holds (a bulk insert's earlier batches included).
    static func function(_ rollups: [SpendingRollups]) -> String {
        """
        CREATE OR REPLACE FUNCTION spending_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('DELETE', 'UPDATE') THEN
        \(rollups.map(\.remove).joined(separator: "\n"))
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
        \(rollups.map(\.add).joined(separator: "\n"))
            END IF;
            RETURN NULL;
        END
        $$
        """
    }

    private var remove: String {
        """
                UPDATE \(table) AS kept SET amount_minor = kept.amount_minor - gone.amount_minor
                FROM (
                    SELECT user_id, \(key("created_at")) AS \(column), category, currency,
                        SUM(amount_minor)::BIGINT AS amount_minor
                    FROM old_rows WHERE \(counted) GROUP BY 1, 2, 3, 4
                ) AS gone
                WHERE kept.user_id = gone.user_id AND kept.\(column) = gone.\(column) AND kept.category = gone.category
                    AND kept.currency = gone.currency;
                -- Every debit is below zero, so a sum back at zero has no row left under it.
                DELETE FROM \(table) AS kept USING old_rows AS gone
                WHERE kept.amount_minor = 0 AND kept.user_id = gone.user_id
                    AND kept.\(column) = \(key("gone.created_at"))
                    AND kept.category = gone.category AND kept.currency = gone.currency;
        """
    }

    private var add: String {
        """
                INSERT INTO \(table) (user_id, \(column), category, currency, amount_minor)
                    SELECT user_id, \(key("created_at")) AS \(column), category, currency,
                        SUM(amount_minor)::BIGINT
                    FROM new_rows WHERE \(counted)
                    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
                ON CONFLICT (user_id, \(column), category, currency)
                    DO UPDATE SET amount_minor = \(table).amount_minor + excluded.amount_minor;
        """
    }
}
