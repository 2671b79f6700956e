import Foundation

/// The ledger's accounts, named so that the same account always has the same id: the order of ids is the order in
/// which a transfer locks its accounts (docs/decisions, "ledger locking").
enum LedgerAccountID {
    /// A user's wallet in one currency: the only kind of account whose balance may never go below zero.
    static func wallet(userID: String, currency: String) -> String { "wallet:\(userID):\(currency)" }
    /// The account money paid in from outside comes from when a new account opens (its balance goes negative by
    /// what was paid in).
    static func opening(currency: String) -> String { "system:opening:\(currency)" }
    /// The funding account of one added card: money topped up from the card comes from it.
    static func card(cardID: String, currency: String) -> String { "card:\(cardID):\(currency)" }
    /// The made-up world of generated history (demo data, `skiff-server seed`): the merchants its purchases pay and
    /// the payers of its salaries. Its balance is minus what generated history has left in wallets.
    static func generated(currency: String) -> String { "system:generated:\(currency)" }
}

/// What kind of movement a transfer is.
enum TransferKind: String, Sendable {
    /// A new account's opening balance, from the system's opening account.
    case opening
    /// From one user's wallet to another's.
    case transfer
    /// From a card's funding account to its owner's wallet.
    case topUp = "topup"
    /// A line of generated history, between a wallet and `LedgerAccountID.generated`.
    case generated
}

/// One completed transfer: two balanced postings between two accounts.
struct TransferRecord: Sendable, Equatable {
    var id: String
    /// A short reference a person can read out (`SKF-…`).
    var reference: String
    var kind: TransferKind
    var fromAccount: String
    var toAccount: String
    /// The user whose wallet paid; nil when the money came from outside (an opening, a top-up's card).
    var payerUserID: String?
    /// The user whose wallet received.
    var payeeUserID: String?
    var amountMinor: Int64
    var currency: String
    var note: String?
    var createdAt: Date
}

/// A statement line a transfer writes into a user's transactions.
struct StatementLine: Sendable, Equatable {
    var userID: String
    /// Negative for money going out.
    var amountMinor: Int64
    var merchant: String
    var category: String
}

extension StatementLine {
    /// The category of both lines of a transfer between people.
    static let transferCategory = "Transfer"
    /// The category of a top-up's line.
    static let topUpCategory = "Top-up"
}

/// A transfer from one user's wallet to another's, as the service has checked it; the repository makes it or
/// refuses it in one database transaction.
struct TransferOrder: Sendable {
    var id: String
    var reference: String
    var payerUserID: String
    var payeeUserID: String
    var amountMinor: Int64
    var currency: String
    var note: String?
    var at: Date
    /// The caller's Idempotency-Key, kept with the transfer (unique per payer) and the keyed hash of the request.
    var idempotencyKey: String
    var requestHash: String
    /// The most the payer may send from `dayStart` on, this transfer included.
    var dailyLimitMinor: Int64
    var dayStart: Date
    /// The proof of the password this transfer uses up, when its amount needs one.
    var stepUp: StepUpUse?
    /// The payer's line (negative) and the payee's line.
    var payerLine: StatementLine
    var payeeLine: StatementLine
    /// The payee's notification.
    var notification: NotificationRecord
}

/// A step-up proof a transfer consumes: it must belong to this session, be unused and be unexpired at `at`.
struct StepUpUse: Sendable, Equatable {
    var tokenHash: String
    var sessionTokenHash: String
}

/// A proof of the password, good for one transfer of one session, to one payee of one amount, until it expires.
struct StepUpRecord: Sendable, Equatable {
    var tokenHash: String
    var sessionTokenHash: String
    var userID: String
    /// The transfer it was asked for: its payee and amount.
    var payeeUserID: String
    var amountMinor: Int64
    var createdAt: Date
    var expiresAt: Date
}

/// What became of a `TransferOrder`.
enum TransferOutcome: Sendable, Equatable {
    /// Made now.
    case made(TransferRecord)
    /// The payer's key made this transfer before, for the same request: it is answered again.
    case replayed(TransferRecord)
    /// The payer's key made a transfer for another request.
    case keyReused
    /// The payer's wallet holds less than the amount (or there is no wallet in the currency).
    case insufficientFunds
    /// The amount would take the day's outgoing total past the limit; `remainingMinor` may still be sent today.
    case overDailyLimit(remainingMinor: Int64)
    /// The step-up proof is missing from the database, used, expired or another session's.
    case stepUpInvalid
    /// The payee has no wallet in the currency.
    case payeeHasNoWallet
}

/// The invariants a ledger check reads, summed in the database.
struct LedgerTotals: Sendable, Equatable {
    /// The sum of every account's balance: always zero.
    var balanceSum: Int64
    /// Accounts whose balance is not the sum of their postings.
    var accountsOffPostings: Int
    /// Transfers whose postings do not sum to zero, or are not two.
    var unbalancedTransfers: Int
    /// Wallets below zero.
    var negativeWallets: Int
}
