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

/// A proof of the password, good for one transfer of one session until it expires.
struct StepUpRecord: Sendable, Equatable {
    var tokenHash: String
    var sessionTokenHash: String
    var userID: String
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

/// Where a top-up stands.
enum TopUpStatus: String, Sendable {
    /// Waiting for the issuer's code (`POST /v1/topups/{id}/confirm`).
    case pending
    /// The money is in the wallet: `transferID` moved it.
    case completed
    /// The issuer declined it after the code; nothing moved.
    case declined
}

/// A top-up as stored: never the card's number, only what names the card (brand and last four).
struct TopUpRecord: Sendable, Equatable {
    var id: String
    var userID: String
    var cardID: String
    var cardBrand: String
    var cardLast4: String
    var amountMinor: Int64
    var currency: String
    var status: TopUpStatus
    /// The issuer's code, when it asked for one.
    var verificationID: String?
    var verificationExpiresAt: Date?
    /// The transfer that moved the money, and its reference (completed only).
    var transferID: String?
    var reference: String?
    /// The card network's authorization.
    var authorizationID: String?
    /// `CardDeclineReason`'s raw value (declined only).
    var declineReason: String?
    /// The caller's Idempotency-Key (unique per user) and the keyed hash of the request.
    var idempotencyKey: String
    var requestHash: String
    var createdAt: Date
    var completedAt: Date?
}

/// What moves the money of an authorized top-up: the transfer from the card's funding account to the wallet, the
/// user's statement line and notification.
struct TopUpCompletion: Sendable {
    var transferID: String
    var reference: String
    var authorizationID: String
    var at: Date
    var line: StatementLine
    var notification: NotificationRecord
}

/// What a top-up repository writes for a new top-up: its record (`pending` or `completed`) and, when completed,
/// the money's move.
struct TopUpOrder: Sendable {
    var topUp: TopUpRecord
    /// Set exactly when `topUp.status` is `completed`.
    var completion: TopUpCompletion?
}

/// What became of a `TopUpOrder`.
enum TopUpOutcome: Sendable, Equatable {
    /// Written now.
    case made(TopUpRecord)
    /// The user's key made this top-up before, for the same request: it is answered again, as it stands now.
    case replayed(TopUpRecord)
    /// The user's key made a top-up for another request.
    case keyReused
    /// The user has no wallet in the currency.
    case noWallet
}

/// Generated history for one wallet (demo data, `skiff-server seed`): each line a ledger transfer between the wallet and
/// the made-up world (`LedgerAccountID.generated`) with its two postings and its statement line, all written in one
/// database transaction, so the wallet's statement adds up to its balance and the ledger's invariants hold.
///
/// A line's statement row is written as an opening balance's is, without its transfer's id or reference: it is history,
/// not news, so no live event announces it (`EventSchema`'s `events_money` follows lines with a `transfer_id`) however
/// many there are, and searches and details show what they showed before.
struct GeneratedHistory: Sendable {
    var userID: String
    var currency: String
    var count: Int
    /// Names this run's transfers (`generated-<run>-<index>`, reference `GEN-<run>-<index>`, the index in ten digits):
    /// unique per run.
    var run: String
    /// Line `index` (oldest first), given the wallet's balance just before it. Its amount is never zero, and never
    /// takes the balance below zero (the repository refuses the whole history if it does).
    var line: @Sendable (_ index: Int, _ balanceMinor: Int64) -> NewTransaction

    /// `index` in ten digits, so that a run's ids and references sort in the order they are written and go in at the end
    /// of their indexes (as `TimeOrderedID`'s do), not all over them.
    static func padded(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    /// A run name: eight characters of Crockford's base 32 from 40 random bits.
    static func makeRun() -> String {
        String(TransferReference.make().dropFirst("SKF-".count))
    }

    /// Why a history cannot be written.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The user has no wallet in the currency.
        case noWallet
        /// Line `index` is zero, or takes the balance below zero or past 64 bits.
        case line(index: Int, amountMinor: Int64, balanceMinor: Int64)

        var description: String {
            switch self {
            case .noWallet: "The user has no wallet in the history's currency."
            case .line(let index, let amount, let balance):
                "Generated line \(index) (\(amount)) cannot be written on a balance of \(balance)."
            }
        }
    }

    /// Line `index` as its transfer and statement line, given the balance before it; the balance after.
    func entry(_ index: Int, balanceMinor: Int64) throws(Refusal) -> (transfer: TransferRecord, line: NewTransaction, balanceMinor: Int64) {
        let item = line(index, balanceMinor)
        let (after, overflow) = balanceMinor.addingReportingOverflow(item.amountMinor)
        guard item.amountMinor != 0, item.amountMinor != .min, !overflow, after >= 0 else {
            throw .line(index: index, amountMinor: item.amountMinor, balanceMinor: balanceMinor)
        }
        let wallet = LedgerAccountID.wallet(userID: userID, currency: currency)
        let world = LedgerAccountID.generated(currency: currency)
        let out = item.amountMinor < 0
        let transfer = TransferRecord(
            id: "generated-\(run)-\(Self.padded(index))", reference: "GEN-\(run)-\(Self.padded(index))", kind: .generated,
            fromAccount: out ? wallet : world, toAccount: out ? world : wallet, payerUserID: out ? userID : nil,
            payeeUserID: out ? nil : userID, amountMinor: abs(item.amountMinor), currency: currency, note: nil,
            createdAt: item.createdAt
        )
        return (transfer, item, after)
    }
}
