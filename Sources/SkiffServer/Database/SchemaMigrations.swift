/// The schema's history, one list for both stores (docs/decisions/0190-one-migration-history-for-both-stores.md):
/// every change has one name here, in the order both stores apply them, and each store gives its statements for
/// every name (`SQLiteMigrations.step`, `PostgresMigrations.statements`), or nothing where the change has nothing to
/// do on it. A database records the names it has had. A new migration is a new case at the end; a case is never
/// renamed, moved or changed once released.
enum SchemaMigration: String, CaseIterable, Sendable {
    /// The first tables (`BaseSchema`): users, sessions, verifications, the sign-in throttle, cards, transactions,
    /// notifications and idempotency keys.
    case base
    /// Who asked for each code, and each number's failed codes, for the caps on codes.
    case codeLimits = "code-limits"
    /// A card can be frozen (`cards.frozen`).
    case cardFreeze = "card-freeze"
    /// An index of each user's debits by time, for spending (dropped by `spendingRollup`).
    case spendingIndex = "spending-index"
    /// Search over merchant and category: a trigram FTS5 table on SQLite, trigram indexes (`pg_trgm`) on PostgreSQL.
    case search
    /// Who consumed a code (`verifications.consumed_by`), so a request retried after a lost answer is answered again.
    case codeReplay = "code-replay"
    /// A session can be locked until its password is given again (`sessions.locked_at`).
    case sessionLock = "session-lock"
    /// A consumed code binds the whole request (the earlier hashes end); the columns and indexes the purge reads.
    case codeReplayBinding = "code-replay-binding"
    /// The country code of the number a code went to, for the cap on texts per country code.
    case codeCountry = "code-country"
    /// Spending per user and UTC day (`spending_days`), built from the history and kept by triggers.
    case spendingRollup = "spending-rollup"
    /// The double-entry ledger: every user's balance becomes a wallet account, explained by an opening transfer.
    case ledger
    /// Top-ups from added cards, each kept with its Idempotency-Key.
    case topUps = "top-ups"
    /// Live events, written by triggers in the transaction of each change (`EventSchema`).
    case events
    /// A partial index of unread notifications (dropped by `unreadCounter`).
    case unreadIndex = "unread-index"
    /// Each user's unread count kept as a counter by triggers (`UnreadNotifications`).
    case unreadCounter = "unread-counter"
    /// Spending per UTC month as well (`spending_months`), kept as the days are.
    case spendingMonths = "spending-months"
    /// The counter's triggers take the user's events lock before the counter's row (PostgreSQL only).
    case unreadLockOrder = "unread-lock-order"
    /// Search covers a transaction's note and its transfer's reference too (`TransactionSearch.columns`).
    case searchNoteReference = "search-note-reference"
    /// Money sent to another person is not spending: both rollups rebuilt by `SpendingRollup.isSpending`.
    case spendingNotTransfers = "spending-not-transfers"
    /// Cards and top-ups through a real card network, one account per card (`CardNetworkSchema`).
    case cardNetwork = "card-network"
    /// A step-up proof names the transfer it was asked for: its payee and amount (`step_ups`).
    case stepUpBinding = "step-up-binding"

    /// The name a database records.
    var name: String { rawValue }

    /// The last migration: a database that has had every one is current.
    static var newest: SchemaMigration { allCases[allCases.count - 1] }

    /// The migrations a database that has had `applied` lacks, oldest first. One its store has nothing to do for
    /// (`isEmpty`) is never lacking: a database without it is the same as one with it.
    static func lacking(applied: Set<SchemaMigration>, isEmpty: (SchemaMigration) -> Bool) -> [SchemaMigration] {
        allCases.filter { !applied.contains($0) && !isEmpty($0) }
    }
}

/// A database that has had migrations this binary does not know: a newer server migrated it, and running on it could
/// corrupt what that server expects.
struct NewerSchemaError: Error, CustomStringConvertible {
    /// "SQLite" or "PostgreSQL".
    var store: String
    /// The names recorded in the database that this binary does not know, sorted.
    var unknown: [String]

    var description: String {
        "The \(store) database has had migrations newer than this skiff-server knows "
            + "(\(unknown.joined(separator: ", ")); its newest is \(SchemaMigration.newest.name)). "
            + "Run a skiff-server at least as new as the one that migrated it."
    }
}
