/// The first tables (migration `base`), written once for both stores in the way
/// `LedgerSchema` is: SQLite reads `BIGINT` as an integer column, and `NOT NULL PRIMARY KEY` keeps SQLite from
/// allowing a null key. What differs is passed in: a byte column's type and the transactions' generated id (on
/// SQLite an `INTEGER PRIMARY KEY`, the rowid that its full-text index points at). Each store's own extras (the
/// PostgreSQL trigram extension and indexes) stay in its migration. A database already past `base` never runs this.
enum BaseSchema {
    static func statements(bytes: String, transactionID: String) -> [String] {
        [
            """
            CREATE TABLE users (
                id TEXT NOT NULL PRIMARY KEY,
                phone TEXT NOT NULL UNIQUE,
                country_code TEXT NOT NULL,
                national_number TEXT NOT NULL,
                full_name TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                balance_minor BIGINT NOT NULL,
                currency TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE verifications (
                id TEXT NOT NULL PRIMARY KEY,
                phone TEXT NOT NULL,
                purpose TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                subject TEXT,
                payload \(bytes),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                consumed_at BIGINT
            )
            """,
            "CREATE INDEX verifications_phone ON verifications (phone, created_at)",
            """
            CREATE TABLE login_throttle (
                phone TEXT NOT NULL PRIMARY KEY,
                failures INTEGER NOT NULL,
                locked_until BIGINT
            )
            """,
            """
            CREATE TABLE cards (
                id TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                brand TEXT NOT NULL,
                last4 TEXT NOT NULL,
                expiry_month INTEGER NOT NULL,
                expiry_year INTEGER NOT NULL,
                holder_name TEXT NOT NULL,
                status TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (user_id, fingerprint)
            )
            """,
            """
            CREATE TABLE transactions (
                \(transactionID),
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                amount_minor BIGINT NOT NULL,
                currency TEXT NOT NULL,
                merchant TEXT NOT NULL,
                category TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX transactions_user_newest ON transactions (user_id, created_at DESC, id DESC)",
            """
            CREATE TABLE notifications (
                id TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                read_at BIGINT
            )
            """,
            "CREATE INDEX notifications_user_newest ON notifications (user_id, created_at DESC)",
            """
            CREATE TABLE idempotency_keys (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                request_hash TEXT NOT NULL,
                status INTEGER,
                content_type TEXT,
                location TEXT,
                body \(bytes),
                created_at BIGINT NOT NULL,
                PRIMARY KEY (scope, key)
            )
            """,
            "CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at)",
        ]
    }
}

/// Unread notifications, for both stores: a counter per user (`unread_notifications`), kept by triggers on
/// `notifications` in the transaction of each change, so that a count reads one row by key however many
/// notifications the user has (migration `unread-counter`). Before it, a count read the user's unread rows
/// from a partial index (`unread-index`): 1 ms at 20,000 unread, on every `/v1/me` and on every payment's notification, so a
/// payee paid by many got slower with every payment.
enum UnreadNotifications {
    /// The unread count of the user whose id is the SQL expression `userID`.
    static func count(userID: String) -> String {
        "COALESCE((SELECT unread FROM unread_notifications WHERE user_id = \(userID)), 0)"
    }

    /// The partial index of migration `unread-index`, dropped with the counter's.
    static let index = "CREATE INDEX notifications_unread ON notifications (user_id, read_at) WHERE read_at IS NULL"

    /// A change of a user's count: `row` is `NEW` or `OLD`, spelled for the store.
    struct Change: Sendable {
        var name: String
        var operation: String
        var when: String
        var row: String
        var delta: Int
    }

    /// A notification arriving unread, read, made unread again, or deleted unread. The triggers run before the change,
    /// so the events' triggers (after it) read the new count.
    static let changes = [
        Change(name: "unread_added", operation: "INSERT", when: "NEW.read_at IS NULL", row: "NEW", delta: 1),
        Change(name: "unread_read", operation: "UPDATE OF read_at", when: "OLD.read_at IS NULL AND NEW.read_at IS NOT NULL", row: "NEW", delta: -1),
        Change(name: "unread_again", operation: "UPDATE OF read_at", when: "OLD.read_at IS NOT NULL AND NEW.read_at IS NULL", row: "NEW", delta: 1),
        Change(name: "unread_deleted", operation: "DELETE", when: "OLD.read_at IS NULL", row: "OLD", delta: -1),
    ]

    /// `greatest` is the store's two-argument maximum: a count never goes below zero, so a notification changed
    /// outside these triggers cannot make every later read of one fail the `CHECK`.
    private static func apply(_ change: Change, greatest: String) -> String {
        """
        INSERT INTO unread_notifications (user_id, unread) VALUES (\(change.row).user_id, \(max(change.delta, 0)))
            ON CONFLICT (user_id) DO UPDATE SET unread = \(greatest)(unread_notifications.unread + \(change.delta), 0)
        """
    }

    /// The counter, filled from the notifications there are, and the partial index dropped.
    private static let table = [
        "CREATE TABLE unread_notifications (user_id TEXT PRIMARY KEY, unread BIGINT NOT NULL CHECK (unread >= 0))",
        """
        INSERT INTO unread_notifications (user_id, unread)
            SELECT user_id, COUNT(*) FROM notifications WHERE read_at IS NULL GROUP BY user_id
        """,
        "DROP INDEX notifications_unread",
    ]

    /// The events' triggers on notifications carry the count in their body: a database migrated before the counter
    /// has them counting rows, so they are made again.
    private static var eventSources: [EventSchema.Source] { EventSchema.sources.filter { $0.table == "notifications" } }

    static var sqlite: [String] {
        table + eventSources.flatMap { ["DROP TRIGGER \($0.name)", EventSchema.sqliteTrigger($0)] } + changes.map { change in
            """
            CREATE TRIGGER \(change.name) BEFORE \(change.operation) ON notifications WHEN \(change.when) BEGIN
                \(apply(change, greatest: "max"));
            END
            """
        }
    }

    /// PostgreSQL's `unread-counter`: the counter and its triggers.
    static var postgres: [String] {
        // Other instances may insert notifications while this runs: none may commit between the fill and the triggers.
        ["LOCK TABLE notifications IN SHARE ROW EXCLUSIVE MODE"] + table + eventSources.map(EventSchema.postgresFunction)
            + changes.flatMap { change in
            [
                postgresFunction(change, lockingEventsFirst: false),
                """
                CREATE TRIGGER \(change.name) BEFORE \(change.operation) ON notifications FOR EACH ROW
                    WHEN (\(change.when)) EXECUTE FUNCTION \(change.name)()
                """,
            ]
        }
    }

    /// PostgreSQL's `unread-lock-order`: each counter trigger takes the user's events lock (`EventSchema.postgresUserLock`)
    /// before the counter's row. A transfer or top-up credits the payee (the balance event takes the events lock)
    /// and then adds the payee's notification (the counter's row); marking a notification read took the counter's
    /// row (this trigger, before the change) and then the events lock (the event, after it). The two deadlocked.
    static var postgresLockFirst: [String] {
        changes.map { postgresFunction($0, lockingEventsFirst: true) }
    }

    private static func postgresFunction(_ change: Change, lockingEventsFirst: Bool) -> String {
        """
        CREATE OR REPLACE FUNCTION \(change.name)() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(lockingEventsFirst ? EventSchema.postgresUserLock(userID: "\(change.row).user_id") + ";" : "")
            \(apply(change, greatest: "GREATEST"));
            RETURN \(change.row);
        END
        $$
        """
    }
}
