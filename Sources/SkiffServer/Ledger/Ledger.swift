import Foundation
import SkiffCore

/// The ledger's rules, written once for both stores
/// ([0192](../../../docs/decisions/0192-ledger-rules-once-over-a-store-s-facts-and-movements.md)). A store runs each
/// procedure in one database transaction in the same three steps: it reads the facts the rules need (after locking the
/// accounts in the order of their ids), asks `Ledger` what to do with them, and makes the `LedgerMovement` it is given,
/// or writes nothing. Every refusal is decided here; a store holds SQL, never a rule.
enum Ledger {
    /// What a procedure decided: an answer that writes nothing (a refusal, a replay), or writes to make first.
    enum Decision<Answer: Sendable, Writes: Sendable>: Sendable {
        case answer(Answer)
        case write(Writes, then: Answer)

        /// The answer when nothing is to be written.
        var answer: Answer? {
            if case .answer(let answer) = self { answer } else { nil }
        }
    }

    // MARK: Transfers

    /// What a transfer's rules read in its transaction, with both wallets locked.
    struct TransferFacts: Sendable {
        /// The payer's transfer made earlier with the same key, and the hash of the request that made it.
        var earlier: KeyedTransfer?
        /// The payer's wallet balance in the order's currency; nil when there is no such wallet.
        var payerBalanceMinor: Int64?
        var payeeHasWallet: Bool
        /// What the payer has sent to other people since the order's `dayStart`.
        var sentTodayMinor: Int64
        /// Whether the order's step-up proof is this session's, for this payee and amount, unused and unexpired at the
        /// order's time (true when the order carries none).
        var stepUpUsable: Bool
    }

    /// A transfer with the request hash it was made for.
    struct KeyedTransfer: Sendable {
        var transfer: TransferRecord
        var requestHash: String?
    }

    /// A transfer between wallets: refused or replayed with no write, or moved. The checks go in one order on
    /// both stores: the key, the payee's wallet, the payer's, the day's limit, the step-up proof (one bound to this
    /// payee and amount, needed once the day's total passes the step-up amount), the funds.
    static func transfer(_ order: TransferOrder, _ facts: TransferFacts) -> Decision<TransferOutcome, LedgerMovement> {
        if let earlier = facts.earlier { return .answer(replay(order, earlier)) }
        guard facts.payeeHasWallet else { return .answer(.payeeHasNoWallet) }
        guard let balance = facts.payerBalanceMinor else { return .answer(.insufficientFunds) }
        let (total, overflow) = facts.sentTodayMinor.addingReportingOverflow(order.amountMinor)
        if overflow || total > order.dailyLimitMinor {
            return .answer(.overDailyLimit(remainingMinor: max(0, order.dailyLimitMinor - facts.sentTodayMinor)))
        }
        guard facts.stepUpUsable else { return .answer(.stepUpInvalid) }
        if order.stepUp == nil, TransferRules.needsStepUp(amountMinor: order.amountMinor, sentTodayMinor: facts.sentTodayMinor) {
            return .answer(.stepUpInvalid)
        }
        guard balance >= order.amountMinor else { return .answer(.insufficientFunds) }
        let made = TransferRecord(
            id: order.id, reference: order.reference, kind: .transfer,
            fromAccount: LedgerAccountID.wallet(userID: order.payerUserID, currency: order.currency),
            toAccount: LedgerAccountID.wallet(userID: order.payeeUserID, currency: order.currency),
            payerUserID: order.payerUserID, payeeUserID: order.payeeUserID, amountMinor: order.amountMinor,
            currency: order.currency, note: order.note, createdAt: order.at
        )
        let movement = LedgerMovement(
            transfer: made, payerIsWallet: true, stepUp: order.stepUp,
            key: .init(idempotencyKey: order.idempotencyKey, requestHash: order.requestHash),
            lines: [order.payerLine, order.payeeLine], notification: order.notification
        )
        return .write(movement, then: .made(made))
    }

    /// The answer to a transfer whose key made `earlier`: the same transfer for the same request, a refusal for another.
    static func replay(_ order: TransferOrder, _ earlier: KeyedTransfer) -> TransferOutcome {
        earlier.requestHash == order.requestHash ? .replayed(earlier.transfer) : .keyReused
    }

    // MARK: Opening a wallet

    /// A new user's wallet, and the movement of `openingMinor` into it from the system's opening account (none when 0).
    static func openWallet(userID: String, currency: String, openingMinor: Int64, at date: Date) -> WalletOpening {
        let wallet = LedgerAccount(
            id: LedgerAccountID.wallet(userID: userID, currency: currency), kind: .wallet, userID: userID,
            currency: currency, createdAt: date
        )
        guard openingMinor > 0 else { return WalletOpening(wallet: wallet, movement: nil) }
        let opening = LedgerAccount(
            id: LedgerAccountID.opening(currency: currency), kind: .system, userID: nil, currency: currency, createdAt: date
        )
        let transfer = TransferRecord(
            id: "opening-" + userID, reference: "OPEN-" + userID, kind: .opening, fromAccount: opening.id,
            toAccount: wallet.id, payerUserID: nil, payeeUserID: userID, amountMinor: openingMinor, currency: currency,
            note: nil, createdAt: date
        )
        return WalletOpening(wallet: wallet, movement: LedgerMovement(transfer: transfer, opens: [opening]))
    }

    /// What opening a wallet writes: the account, then its opening balance's movement.
    struct WalletOpening: Sendable {
        var wallet: LedgerAccount
        var movement: LedgerMovement?
    }

    // MARK: Generated history

    /// The balance `history` starts from: its wallet's. A user with no wallet in its currency has none to write into.
    static func historyStart(_ history: GeneratedHistory, walletBalanceMinor: Int64?) throws(GeneratedHistory.Refusal) -> Int64 {
        guard let balance = walletBalanceMinor else { throw .noWallet }
        return balance
    }

    /// The generated world's account, opened with generated history's first line (`GeneratedHistory.entry` decides each
    /// line, and refuses one that would take the wallet below zero).
    static func generatedWorld(_ history: GeneratedHistory, at date: Date) -> LedgerAccount {
        LedgerAccount(
            id: LedgerAccountID.generated(currency: history.currency), kind: .system, userID: nil,
            currency: history.currency, createdAt: date
        )
    }

    // MARK: Top-ups

    /// What a new top-up's rules read in its transaction.
    struct TopUpFacts: Sendable {
        /// The user's top-up made earlier with the same key.
        var earlier: TopUpRecord?
        /// Whether the user has a wallet in the top-up's currency.
        var hasWallet: Bool
    }

    /// A new top-up, once per (user, key): its row, and when it is completed, the money's move from the card (the
    /// movement written before the row; nil for a top-up waiting for its code).
    static func topUp(_ order: TopUpOrder, _ facts: TopUpFacts) -> Decision<TopUpOutcome, LedgerMovement?> {
        if let earlier = facts.earlier {
            return .answer(earlier.requestHash == order.topUp.requestHash ? .replayed(earlier) : .keyReused)
        }
        guard let completion = order.completion else { return .write(nil, then: .made(order.topUp)) }
        guard facts.hasWallet else { return .answer(.noWallet) }
        return .write(movement(order.topUp, completion), then: .made(order.topUp))
    }

    /// Completing the pending top-up `pending` (as read, locked, in the transaction): nil when there is none; the top-up
    /// as it stands when it is no longer pending; otherwise the money's move and the top-up completed.
    static func complete(
        _ pending: TopUpRecord?, _ completion: TopUpCompletion, hasWallet: Bool
    ) throws -> Decision<TopUpRecord?, LedgerMovement> {
        guard var topUp = pending, topUp.status == .pending else { return .answer(pending) }
        // The service checked the currency against the user's wallet before the network was asked.
        guard hasWallet else { throw NoWallet() }
        let movement = movement(topUp, completion)
        topUp.status = .completed
        topUp.transferID = completion.transferID
        topUp.reference = completion.reference
        topUp.authorizationID = completion.authorizationID
        topUp.completedAt = completion.at
        // Nothing is left for the holder to confirm: answered as both stores write it.
        topUp.actionURL = nil
        return .write(movement, then: topUp)
    }

    /// The funding account of the card `topUp` comes from, as opened on its first completed top-up.
    static func fundingAccount(of topUp: TopUpRecord, at date: Date) -> LedgerAccount {
        LedgerAccount(
            id: LedgerAccountID.card(cardID: topUp.cardID, currency: topUp.currency), kind: .card, userID: topUp.userID,
            currency: topUp.currency, createdAt: date
        )
    }

    /// The money of `topUp` moving from the card's funding account (opened on first use; its balance goes below zero
    /// by what came in from the card) to the wallet, with the statement line and the notification.
    private static func movement(_ topUp: TopUpRecord, _ completion: TopUpCompletion) -> LedgerMovement {
        let card = fundingAccount(of: topUp, at: completion.at)
        let transfer = TransferRecord(
            id: completion.transferID, reference: completion.reference, kind: .topUp, fromAccount: card.id,
            toAccount: LedgerAccountID.wallet(userID: topUp.userID, currency: topUp.currency), payerUserID: nil,
            payeeUserID: topUp.userID, amountMinor: topUp.amountMinor, currency: topUp.currency, note: nil,
            createdAt: completion.at
        )
        return LedgerMovement(
            transfer: transfer, opens: [card], lines: [completion.line], notification: completion.notification
        )
    }
}

/// An account the ledger opens.
struct LedgerAccount: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// A user's wallet: its balance never goes below zero.
        case wallet
        /// An added card's funding account.
        case card
        /// The system's opening account, and the generated world.
        case system
    }

    var id: String
    var kind: Kind
    var userID: String?
    var currency: String
    var createdAt: Date
}

/// The writes of one ledger movement, decided by `Ledger`. A store makes them in this order, in the transaction it read
/// the facts in: the accounts to open (each only if absent), the debit of `transfer.fromAccount`, the use of the step-up
/// proof, the credit of `transfer.toAccount`, the transfer's row and its two postings, the statement lines, the
/// notification. A debit of a wallet or a step-up use that changes nothing means the facts changed under the
/// transaction's locks: a defect (`LedgerWriteError`), and the transaction rolls back.
struct LedgerMovement: Sendable {
    var transfer: TransferRecord
    /// Accounts opened now unless they exist (a card's funding account on its first top-up, the opening account).
    var opens: [LedgerAccount] = []
    /// The paying account is a wallet: its debit is taken only where it covers the amount.
    var payerIsWallet = false
    var stepUp: StepUpUse?
    /// The caller's key and request hash, kept with the transfer (a payer's transfers only).
    var key: Key?
    var lines: [StatementLine] = []
    var notification: NotificationRecord?

    struct Key: Sendable {
        var idempotencyKey: String
        var requestHash: String
    }
}

/// A write whose condition was checked in the same transaction found nothing to change: a defect, never a refusal.
enum LedgerWriteError: Error, CustomStringConvertible {
    case conditionChanged(String)

    var description: String {
        switch self {
        case .conditionChanged(let what): "The \(what) checked before a transfer's writes changed in its transaction."
        }
    }
}

/// A pending top-up's user has no wallet in its currency: the service checks the currency first, so this is a bug.
struct NoWallet: Error {}
