/// The first tables (SQLite migration v1, PostgreSQL migration 1), written once for both stores in the way
/// `LedgerSchema` is: SQLite reads `BIGINT` as an integer column, and `NOT NULL PRIMARY KEY` keeps SQLite from
/// allowing a null key. What differs is passed in: a byte column's type and the transactions' generated id (on
/// SQLite an `INTEGER PRIMARY KEY`, the rowid that its full-text index points at). Each store's own extras (the
/// PostgreSQL trigram extension and indexes) stay in its migration. A database already past v1 never runs this.
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

/// Unread notifications, for both stores: what counts as unread, and the partial index that counts a user's without
/// reading their rows (SQLite migration v15, PostgreSQL 13). Without it a count read every notification of the user,
/// and a payee paid by many (each payment a notification and a count) got slower with every payment.
enum UnreadNotifications {
    /// The unread count of the user whose id is the SQL expression `userID`, as a scalar subquery.
    static func count(userID: String) -> String {
        "(SELECT COUNT(*) FROM notifications WHERE user_id = \(userID) AND read_at IS NULL)"
    }

    /// `read_at` is in it (always null there) so that SQLite reads the count from the index alone.
    static let index = "CREATE INDEX notifications_unread ON notifications (user_id, read_at) WHERE read_at IS NULL"
}
