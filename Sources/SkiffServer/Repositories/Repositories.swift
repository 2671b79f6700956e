import Foundation
import SkiffCore

/// Accounts: users, their balance, and the records registration creates together.
protocol AccountRepository: Sendable {
    /// Creates the user, the issued card, the opening transaction and the welcome notification in one
    /// transaction; throws `RepositoryError.duplicate` when the phone number is taken.
    func create(_ account: NewAccount) async throws
    func user(id: String) async throws -> UserRecord?
    /// The users of `ids` that exist, by id, in one read (a transfer's payer and payee).
    func users(ids: [String]) async throws -> [String: UserRecord]
    /// The user and how many of their notifications are unread, in one read (`GET /v1/me`).
    func overview(id: String) async throws -> AccountOverview?
    func user(phone: String) async throws -> UserRecord?
    /// Replaces the password hash, revokes every session of the user and ends the replay of every code of the
    /// user's (its registration's, its resets') but `keepingReplayOf`, at once.
    func resetPassword(userID: String, passwordHash: String, at date: Date, keepingReplayOf verificationID: String?) async throws
}

/// Sessions, looked up by the SHA-256 of their token.
protocol SessionRepository: Sendable {
    func create(_ session: SessionRecord) async throws
    func session(tokenHash: String) async throws -> SessionRecord?
    /// Records use of the session.
    func touch(tokenHash: String, at date: Date) async throws
    func revoke(tokenHash: String, at date: Date) async throws
    /// Locks the session at `date` unless it is locked already. With `unusedSince`, only if no use was written
    /// after it: an idle lock decided on an earlier read never undoes an unlock made meanwhile.
    func lock(tokenHash: String, at date: Date, unusedSince: Date?) async throws
    /// Lifts the lock and records use at `date`, so the idle time starts again.
    func unlock(tokenHash: String, at date: Date) async throws
    /// Sessions not revoked, not past `now` and used after `usedAfter`, on every instance (for `/metrics`).
    func activeCount(now: Date, usedAfter: Date) async throws -> Int
}

/// One-time codes.
protocol VerificationRepository: Sendable {
    /// The codes issued to `phone` for purposes that share `purpose`'s caps (`CodePurpose.sharingCaps`), those
    /// asked for from `address`, after `since`, and those of `country`'s window.
    func issueHistory(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date
    ) async throws -> CodeIssueHistory
    /// In one step, serialised per number, per address and per country code: reads the history of `record`'s number
    /// and purpose as `issueHistory` does and hands it to `refusal`; when that refuses, returns its answer and stores
    /// nothing. Otherwise stores `record`, asked for from `address` for a number of `country`'s code, ends every
    /// unused earlier code of the same number and purpose (they expire at the new code's creation), and returns nil.
    func create<Refusal: Sendable>(
        _ record: VerificationRecord, address: String, country: CountryCodeWindow, historySince since: Date,
        refusal: @escaping @Sendable (CodeIssueHistory) -> Refusal?
    ) async throws -> Refusal?
    func verification(id: String) async throws -> VerificationRecord?
    /// Checks a try at code `id` in one step, so that parallel guesses cannot pass the limits: `judge` reads the
    /// record (`CodeTry`) and an unusable one changes nothing; then `pause` sees when the wrong tries at any code
    /// of the same number after `failuresSince` were made (oldest first) and may pause the number; then a right
    /// try consumes the code, recording `consumedBy`, a replay changes nothing, and a wrong one (a replay miss
    /// too) counts, on the code and on its number.
    func attempt(
        id: String, at date: Date, failuresSince: Date, pause: @escaping @Sendable ([Date]) -> Date?,
        judge: @escaping @Sendable (VerificationRecord) -> CodeTry, consumedBy: String?
    ) async throws -> CodeAttempt
}

/// Failed sign-ins per number.
protocol LoginThrottleRepository: Sendable {
    /// In one step: when the number is paused at `date`, returns the end of the pause; otherwise counts the
    /// attempt as a failure (until `reset` clears it on success), lets `lockout` set the pause from the new
    /// count, and returns nil. Counting first means parallel guesses are all counted.
    func beginAttempt(
        phone: String, at date: Date, lockout: @escaping @Sendable (_ failures: Int) -> Date?
    ) async throws -> Date?
    func reset(phone: String) async throws
}

/// Cards, always within one user.
protocol CardRepository: Sendable {
    /// The user's cards, the issued one first, then by age.
    func cards(userID: String) async throws -> [CardRecord]
    func card(id: String, userID: String) async throws -> CardRecord?
    /// Adds `card` and, in the same transaction, `notification`; throws `RepositoryError.duplicate` (writing neither)
    /// when the user has a card with the same fingerprint.
    func insert(_ card: CardRecord, announcing notification: NotificationRecord?) async throws
    func setStatus(_ status: CardStatusValue, cardID: String, userID: String) async throws
    /// Freezes or unfreezes the card; setting what is already set changes nothing.
    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws
    func delete(id: String, userID: String) async throws
}

/// Transactions, newest first.
protocol TransactionRepository: Sendable {
    /// Up to `limit` transactions after `cursor`, newest first, whose merchant, category, note or reference
    /// contains `query` (`TransactionSearch`).
    func page(userID: String, after cursor: TransactionCursor?, query: String?, limit: Int) async throws -> [TransactionRecord]
    /// How many transactions the user has, counting no further than `limit`.
    func count(userID: String, upTo limit: Int) async throws -> Int
    /// Inserts `count` transactions made by `make` in one transaction, with one prepared statement.
    func insert(userID: String, count: Int, make: @escaping @Sendable (Int) -> NewTransaction) async throws
    /// For each of `periods`, what was spent (`SpendingRollup.isSpending`: money out, but not to another person) from its
    /// start until just before its end, summed per category and currency, the largest first (then by category and currency); all of them read by one statement.
    /// Bounds are first instants of UTC days (`SpendingMonth`'s are): the sums are read from the rollups kept per UTC
    /// month and day (`SpendingPlan`), so a whole month costs one row per category and currency and a part of one at
    /// most 15 days' rows, whatever the account's size.
    func spending(userID: String, in periods: [Range<Date>]) async throws -> [[CategorySpendingRecord]]
}

/// Notifications, newest first.
protocol NotificationRepository: Sendable {
    func notifications(userID: String, limit: Int) async throws -> [NotificationRecord]
    func insert(_ notification: NotificationRecord) async throws
    /// False when the user has no such notification.
    func markRead(id: String, userID: String, at date: Date) async throws -> Bool
}

/// The double-entry ledger: accounts with balances, transfers of balanced postings, never updated or deleted.
protocol LedgerRepository: Sendable {
    /// The balance of the user's wallet in `currency`; nil when there is none.
    func walletBalance(userID: String, currency: String) async throws -> Int64?
    /// Makes `order` or refuses it as `Ledger.transfer` decides, in one database transaction: both wallets locked in
    /// the order of their ids, the facts read, then the movement made (the debit, the use of the step-up proof, the
    /// credit, the transfer, its two postings, both statement lines, the payee's notification). A refusal writes nothing.
    func transfer(_ order: TransferOrder) async throws -> TransferOutcome
    /// The transfer `id` when `userID` sent or received it.
    func transfer(id: String, userID: String) async throws -> TransferRecord?
    /// Stores a step-up proof.
    func createStepUp(_ record: StepUpRecord) async throws
    /// The invariants over the whole ledger (for checks and the bank test).
    func totals() async throws -> LedgerTotals
    /// Writes `history` in one database transaction: each line's transfer between the wallet and the generated world,
    /// its two postings and its statement line, then both balances moved by the lines' sum; answers the wallet's balance
    /// after. Refuses it whole (`GeneratedHistory.Refusal`) when the user has no wallet in its currency, or a line is
    /// zero or would take the balance below zero.
    func record(_ history: GeneratedHistory) async throws -> Int64
}

/// Counted events in a sliding window, across instances (recipient lookups).
protocol RateWindowRepository: Sendable {
    /// In one step, serialised per `scope`: counts the events of `scope` after `since`; when fewer than `limit`,
    /// records one at `date` and returns nil; otherwise records nothing and returns the oldest counted event's date.
    func take(scope: String, at date: Date, since: Date, limit: Int) async throws -> Date?
}

/// Responses kept per (caller, Idempotency-Key).
protocol IdempotencyRepository: Sendable {
    /// Looks the key up and reserves it when new. A record older than `expiredBefore`, or a reservation older
    /// than `abandonedBefore` (its server stopped mid-request), counts as new.
    func begin(
        scope: String, key: String, requestHash: String, at date: Date, expiredBefore: Date, abandonedBefore: Date
    ) async throws -> IdempotencyBegin
    func complete(scope: String, key: String, response: StoredResponse) async throws
    /// Releases a reservation whose request failed, so the key can be used again.
    func abandon(scope: String, key: String) async throws
}

enum RepositoryError: Error, Equatable {
    /// A unique value (phone number, card fingerprint) exists already.
    case duplicate
}

/// The repositories the server runs on.
struct Repositories: Sendable {
    var accounts: any AccountRepository
    var sessions: any SessionRepository
    var verifications: any VerificationRepository
    var loginThrottle: any LoginThrottleRepository
    var cards: any CardRepository
    var transactions: any TransactionRepository
    var notifications: any NotificationRepository
    var idempotency: any IdempotencyRepository
    var ledger: any LedgerRepository
    var topUps: any TopUpRepository
    var rateWindows: any RateWindowRepository
    var events: any EventRepository
}

/// Top-ups from added cards. A completed top-up is a ledger transfer of kind `topup` from the card's funding account
/// (`LedgerAccountID.card`, created on first use; its balance goes negative by what came in from outside) to the
/// user's wallet, written in the same database transaction as the top-up's row.
protocol TopUpRepository: Sendable {
    /// Writes `order` once per (user, Idempotency-Key): a completed one with its transfer, postings, balances,
    /// statement line and notification, all in one database transaction; a key seen before answers what it made.
    func create(_ order: TopUpOrder) async throws -> TopUpOutcome
    /// Completes the pending top-up `id` of `userID` with `completion`, in one database transaction; answers the
    /// top-up as it stands after (completed by this call or an earlier one, or declined), nil when there is none.
    func complete(id: String, userID: String, _ completion: TopUpCompletion) async throws -> TopUpRecord?
    /// Declines the pending top-up `id`; answers it as it stands after, nil when there is none.
    func decline(id: String, userID: String, reason: String, at date: Date) async throws -> TopUpRecord?
    func topUp(id: String, userID: String) async throws -> TopUpRecord?
    func topUp(userID: String, idempotencyKey: String) async throws -> TopUpRecord?
}
