import Foundation

/// The live events of `GET /v1/events` (docs/decisions/0155-live-events-written-by-triggers.md): one row per change a
/// signed-in client shows, written by triggers in the transaction of the change itself, so an event exists exactly
/// when its change committed, whichever code path made it (a transfer, a top-up, a card, a notification read, a
/// password reset, an idle lock). Ids only grow; a stream reads a user's rows after the last id it sent.
enum EventSchema {
    /// What each kind of row carries: `transaction_id` (money), `balance_minor` and `currency` (balance),
    /// `unread` (notifications), `card_id` (cards), `session_token_hash` (a session's own lock or revocation, sent to
    /// that session only).
    static func table(id: String) -> String {
        """
        CREATE TABLE events (
            \(id),
            user_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            session_token_hash TEXT,
            transaction_id BIGINT,
            balance_minor BIGINT,
            currency TEXT,
            unread INTEGER,
            card_id TEXT,
            created_at BIGINT NOT NULL
        )
        """
    }

    static let indexes = [
        "CREATE INDEX events_user ON events (user_id, id)",
        "CREATE INDEX events_age ON events (created_at)",
    ]

    /// One change that makes an event: the table and operation it follows, when, and the row's values (`row` is
    /// `NEW` or `OLD`, spelled for the store).
    struct Source: Sendable {
        var name: String
        var table: String
        var operation: String
        /// A condition on `new` / `old`; nil for every row.
        var when: String?
        /// The row's own values in store-neutral SQL: `columns` of `events` and `values` over `row`.
        var columns: String
        var values: @Sendable (_ new: String, _ old: String) -> String
    }

    static let sources: [Source] = [
        Source(
            name: "events_balance", table: "ledger_accounts", operation: "UPDATE OF balance_minor",
            when: "NEW.kind = 'wallet' AND NEW.user_id IS NOT NULL AND NEW.balance_minor <> OLD.balance_minor",
            columns: "user_id, kind, balance_minor, currency",
            values: { new, _ in "\(new).user_id, 'balance-changed', \(new).balance_minor, \(new).currency" }
        ),
        // Every statement line of a transfer or top-up (the seeded history has none).
        Source(
            name: "events_money", table: "transactions", operation: "INSERT", when: "NEW.transfer_id IS NOT NULL",
            columns: "user_id, kind, transaction_id",
            values: { new, _ in
                "\(new).user_id, CASE WHEN \(new).amount_minor > 0 THEN 'money-received' ELSE 'money-sent' END, \(new).id"
            }
        ),
        Source(
            name: "events_notification_created", table: "notifications", operation: "INSERT", when: nil,
            columns: "user_id, kind, unread",
            values: { new, _ in "\(new).user_id, 'notifications-changed', \(UnreadNotifications.count(userID: "\(new).user_id"))" }
        ),
        Source(
            name: "events_notification_read", table: "notifications", operation: "UPDATE OF read_at",
            when: "OLD.read_at IS NULL AND NEW.read_at IS NOT NULL",
            columns: "user_id, kind, unread",
            values: { new, _ in "\(new).user_id, 'notifications-changed', \(UnreadNotifications.count(userID: "\(new).user_id"))" }
        ),
        Source(
            name: "events_card_added", table: "cards", operation: "INSERT", when: nil,
            columns: "user_id, kind, card_id", values: { new, _ in "\(new).user_id, 'card-changed', \(new).id" }
        ),
        Source(
            name: "events_card_changed", table: "cards", operation: "UPDATE", when: nil,
            columns: "user_id, kind, card_id", values: { new, _ in "\(new).user_id, 'card-changed', \(new).id" }
        ),
        Source(
            name: "events_card_removed", table: "cards", operation: "DELETE", when: nil,
            columns: "user_id, kind, card_id", values: { _, old in "\(old).user_id, 'card-changed', \(old).id" }
        ),
        Source(
            name: "events_session_locked", table: "sessions", operation: "UPDATE OF locked_at",
            when: "OLD.locked_at IS NULL AND NEW.locked_at IS NOT NULL",
            columns: "user_id, kind, session_token_hash",
            values: { new, _ in "\(new).user_id, 'session-locked', \(new).token_hash" }
        ),
        Source(
            name: "events_session_revoked", table: "sessions", operation: "UPDATE OF revoked_at",
            when: "OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL",
            columns: "user_id, kind, session_token_hash",
            values: { new, _ in "\(new).user_id, 'session-revoked', \(new).token_hash" }
        ),
    ]

    /// SQLite: a trigger per source, in the writing statement's transaction. `AUTOINCREMENT` keeps ids growing past
    /// purged rows; SQLite has one writer at a time, so ids are also in commit order.
    static var sqlite: String {
        ([table(id: "id INTEGER PRIMARY KEY AUTOINCREMENT")] + indexes + sources.map(sqliteTrigger)).joined(separator: ";\n")
    }

    /// SQLite: the trigger of one source.
    static func sqliteTrigger(_ source: Source) -> String {
        let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
        return """
            CREATE TRIGGER \(source.name) AFTER \(source.operation) ON \(source.table)
                \(source.when.map { "WHEN \($0)" } ?? "") BEGIN
                INSERT INTO events (\(source.columns), created_at) VALUES (\(source.values("NEW", "OLD")), \(now));
            END
            """
    }

    /// PostgreSQL: the same triggers, and one on `events` that gives each row its id under a per-user lock held to the
    /// commit (so one user's ids are in commit order, and a stream that has read id N never misses an N−1 committed
    /// later) and `pg_notify`s the user on the `skiff_events` channel: delivered to every listening instance at the
    /// commit, and not at all on a rollback.
    static var postgres: [String] {
        [
            "CREATE SEQUENCE events_id_seq",
            table(id: "id BIGINT PRIMARY KEY"),
        ] + indexes + [
            """
            CREATE FUNCTION events_order() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(postgresUserLock(userID: "NEW.user_id"));
                NEW.id := nextval('events_id_seq');
                PERFORM pg_notify('\(channel)', NEW.user_id);
                RETURN NEW;
            END
            $$
            """,
            "CREATE TRIGGER events_order BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_order()",
        ] + sources.flatMap { source in [postgresFunction(source), postgresTrigger(source)] }
    }

    /// PostgreSQL: the statement (in a trigger function) that takes the events lock of the user whose id is the SQL
    /// expression `userID`, held to the commit. Whatever else a transaction locks for a user it locks after this
    /// (`UnreadNotifications.postgresLockFirst`), so two transactions never wait for each other in a cycle.
    static func postgresUserLock(userID: String) -> String {
        "PERFORM pg_advisory_xact_lock(hashtextextended('skiff_events:' || \(userID), 0))"
    }

    private static let postgresNow = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"

    /// PostgreSQL: the function of one source's trigger (`OR REPLACE`: a later migration may give it a new body).
    static func postgresFunction(_ source: Source) -> String {
        """
        CREATE OR REPLACE FUNCTION \(source.name)() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (\(source.columns), created_at) VALUES (\(source.values("NEW", "OLD")), \(postgresNow));
            RETURN NULL;
        END
        $$
        """
    }

    private static func postgresTrigger(_ source: Source) -> String {
        """
        CREATE TRIGGER \(source.name) AFTER \(source.operation) ON \(source.table) FOR EACH ROW
            \(source.when.map { "WHEN (\($0))" } ?? "") EXECUTE FUNCTION \(source.name)()
        """
    }

    /// The PostgreSQL channel whose payload is the user id of committed events.
    static let channel = "skiff_events"

    /// The columns a stream reads: the event, and for money its statement line and the kind of its transfer.
    static let selectColumns = """
        e.id, e.kind, e.balance_minor, e.currency, e.unread, e.card_id, t.id, t.amount_minor, t.currency, t.merchant,
        t.category, t.created_at, t.transfer_id, t.note, t.reference, tr.kind
        """

    static let selectFrom = """
        FROM events AS e LEFT JOIN transactions AS t ON t.id = e.transaction_id
        LEFT JOIN transfers AS tr ON tr.id = t.transfer_id
        """
}

/// One event as a stream reads it.
struct EventRecord: Sendable, Equatable {
    enum Kind: String, Sendable {
        case moneyReceived = "money-received", moneySent = "money-sent", balanceChanged = "balance-changed"
        case notificationsChanged = "notifications-changed", cardChanged = "card-changed"
        case sessionLocked = "session-locked", sessionRevoked = "session-revoked"
    }

    var id: Int64
    var kind: Kind
    var balanceMinor: Int64?
    var currency: String?
    var unread: Int?
    var cardID: String?
    /// The statement line of a money event, and the kind of its transfer (`transfer`, `topup`).
    var transaction: TransactionRecord?
    var transferKind: String?
}

/// Reads the live events (written by the triggers of `EventSchema`).
protocol EventRepository: Sendable {
    /// Up to `limit` events of `userID` after `id`, oldest first: every event of the user's but another session's
    /// lock or revocation.
    func events(userID: String, sessionTokenHash: String, after id: Int64, limit: Int) async throws -> [EventRecord]
    /// The newest event id of `userID`, 0 when none: where a stream without `Last-Event-ID` starts.
    func latestID(userID: String) async throws -> Int64
}
