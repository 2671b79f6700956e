import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema, one numbered step at a time; applied steps are recorded in `schema_migrations`.
enum PostgresMigrations {
    /// One step: statements run in one transaction, recorded with its version.
    struct Migration: Sendable {
        var version: Int
        var statements: [String]
    }

    /// The advisory lock every instance takes before it reads or changes the schema.
    static let advisoryLockKey: Int64 = 0x736B_6966_665F_6462 // "skiff_db"

    /// A database migrated by a newer server than this one: running on it could corrupt what that server expects.
    struct NewerSchemaError: Error, CustomStringConvertible {
        var databaseVersion: Int
        var knownVersion: Int

        var description: String {
            "The PostgreSQL database is at schema version \(databaseVersion), newer than this skiff-server knows "
                + "(\(knownVersion)). Run a skiff-server at least as new as the one that migrated it."
        }
    }

    static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// Brings the schema to `latestVersion` (or to `target`, for a test of a later step over older data) while
    /// holding the advisory lock, so instances starting at the same moment migrate one after the other; refuses a
    /// database at a version this binary does not know.
    static func migrate(_ client: PostgresClient, logger: Logger, upTo target: Int = latestVersion) async throws {
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

    /// The versions this binary knows that the database has not had, oldest first (all of them on a database that
    /// has no `schema_migrations` yet). Reads only: no lock, no table made.
    static func pending(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        var applied = Set<Int>()
        let exists = try await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
        var hasTable = false
        for try await value in exists.decode(Bool.self) { hasTable = value }
        if hasTable {
            for try await version in try await client.query("SELECT version FROM schema_migrations", logger: logger)
                .decode(Int.self) {
                applied.insert(version)
            }
        }
        return migrations.map(\.version).filter { !applied.contains($0) }.sorted()
    }

    private static func migrateLocked(_ connection: PostgresConnection, logger: Logger, upTo target: Int) async throws {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """, logger: logger)
        var current = 0
        for try await version in try await connection.query(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", logger: logger
        ).decode(Int.self) {
            current = version
        }
        guard current <= latestVersion else {
            throw NewerSchemaError(databaseVersion: current, knownVersion: latestVersion)
        }
        for migration in migrations where migration.version > current && migration.version <= target {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migrations (version) VALUES (\(migration.version))", logger: logger
                )
            }
            logger.info("migrated PostgreSQL", metadata: ["version": "\(migration.version)"])
        }
    }

    static let migrations: [Migration] = [
        Migration(version: 1, statements: ["CREATE EXTENSION IF NOT EXISTS pg_trgm"]
            + BaseSchema.statements(bytes: "BYTEA", transactionID: "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
            + [
                "CREATE INDEX transactions_merchant_trgm ON transactions USING GIN (merchant gin_trgm_ops)",
                "CREATE INDEX transactions_category_trgm ON transactions USING GIN (category gin_trgm_ops)",
            ]),
        Migration(version: 2, statements: [
            "ALTER TABLE verifications ADD COLUMN requested_by TEXT",
            "CREATE INDEX verifications_requested_by ON verifications (requested_by, created_at)",
            """
            CREATE TABLE code_failures (
                phone TEXT NOT NULL,
                failed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX code_failures_phone ON code_failures (phone, failed_at)",
        ]),
        Migration(version: 3, statements: [
            "ALTER TABLE cards ADD COLUMN frozen BOOLEAN NOT NULL DEFAULT FALSE",
        ]),
        Migration(version: 4, statements: [
            """
            CREATE INDEX transactions_user_spending ON transactions (user_id, created_at)
                INCLUDE (category, currency, amount_minor) WHERE amount_minor < 0
            """,
        ]),
        Migration(version: 5, statements: [
            "ALTER TABLE verifications ADD COLUMN consumed_by TEXT",
        ]),
        Migration(version: 6, statements: [
            "ALTER TABLE sessions ADD COLUMN locked_at BIGINT",
        ]),
        // Issue 23: consumed_by binds the whole request now; the earlier values bound the Idempotency-Key alone.
        // And for the purge: when a failure count last grew, and the ages the purge reads.
        Migration(version: 7, statements: [
            "UPDATE verifications SET consumed_by = NULL WHERE consumed_by IS NOT NULL",
            "ALTER TABLE login_throttle ADD COLUMN last_failed_at BIGINT",
            "CREATE INDEX verifications_age ON verifications (created_at)",
            "CREATE INDEX code_failures_age ON code_failures (failed_at)",
            "CREATE INDEX sessions_expiry ON sessions (expires_at)",
        ]),
        // Issue 23: the country code of the number a code went to, for the cap on texts per country code.
        Migration(version: 8, statements: [
            "ALTER TABLE verifications ADD COLUMN country_code TEXT",
            "CREATE INDEX verifications_country ON verifications (country_code, created_at)",
        ]),
        // Issue 25: the spending rollup (`SpendingRollup`), built from the history under a lock that holds
        // writers off until the triggers exist, then kept by statement triggers in the transaction of every change
        // to `transactions` (one grouped upsert per statement, however many rows it wrote). The partial index that
        // summed the month's rows is read by nothing after this, so it goes.
        Migration(version: 9, statements: [
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
        ]),
        // Issue 25: the double-entry ledger (docs/decisions, "ledger"). Every user's balance becomes a wallet
        // account whose opening transfer from the system's opening account explains it.
        Migration(version: 10, statements: PostgresLedgerRepository.schema + [
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
        ]),
        // Issue 25: top-ups from added cards, each kept with its Idempotency-Key (docs/decisions, "top-ups").
        Migration(version: 11, statements: PostgresTopUpRepository.schema),
        // Issue 26: live events, written by triggers in the transaction of each change (`EventSchema`).
        Migration(version: 12, statements: EventSchema.postgres),
        // Counting a user's unread notifications without reading every notification of theirs (`UnreadNotifications`).
        Migration(version: 13, statements: [UnreadNotifications.index]),
        // A user's unread count kept as a counter, one row read by key (`UnreadNotifications`).
        Migration(version: 14, statements: UnreadNotifications.postgres),
        // The spending rollup per UTC month as well (`SpendingPlan`), kept by the same triggers as the days, the
        // months first (`SpendingRollups.function`).
        Migration(version: 15, statements: [
            "LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE",
        ] + SpendingRollups.months.tableAndHistory + [
            SpendingRollups.function([.months, .days]),
        ]),
        // A user's events lock before their unread counter's row, in every transaction (`UnreadNotifications`).
        Migration(version: 16, statements: UnreadNotifications.postgresLockFirst),
        // Search matches a transaction's note and its transfer's reference too (`TransactionSearch.columns`): a
        // trigram index on each, as on merchant and category, so every arm of the ILIKEs' OR is served by an index
        // (a BitmapOr). Partial: most lines have neither, and an ILIKE is never true of a NULL, so the planner takes
        // them for it.
        Migration(version: 17, statements: [
            "CREATE INDEX transactions_note_trgm ON transactions USING GIN (note gin_trgm_ops) WHERE note IS NOT NULL",
            """
            CREATE INDEX transactions_reference_trgm ON transactions USING GIN (reference gin_trgm_ops)
                WHERE reference IS NOT NULL
            """,
        ]),
        // Issue 42: money sent to another person is not spending (`SpendingRollup.isSpending`). Under the lock of 9,
        // both rollups are emptied and filled again from the history by the rule, and the triggers' function keeps
        // them by it from now on.
        Migration(version: 18, statements: [
            "LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE",
            "DELETE FROM spending_months",
            "DELETE FROM spending_days",
            SpendingRollups.days(counting: SpendingRollup.isSpending()).fill,
            SpendingRollups.months(counting: SpendingRollup.isSpending()).fill,
            SpendingRollups.function([
                .months(counting: SpendingRollup.isSpending()), .days(counting: SpendingRollup.isSpending()),
            ]),
        ]),
    ]
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

    /// What migrations 9 and 15 summed: every debit.
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
