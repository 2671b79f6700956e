import Foundation
import SkiffCore

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
    /// Keeps the pending top-up's payment at the network (the first one kept stays) and where its holder confirms it
    /// (nil once they need not); answers the top-up as it stands after.
    func recordPayment(id: String, userID: String, paymentID: String, actionURL: String?) async throws -> TopUpRecord?
    /// The top-up of a payment at the network, whoever's it is (a webhook names the payment only).
    func topUp(paymentID: String) async throws -> TopUpRecord?
    /// The top-ups not declined since `since`: the user's, or of any account from the card with `cardFingerprint`.
    func totals(userID: String, since: Date) async throws -> TopUpTotals
    func totals(cardFingerprint: String, since: Date) async throws -> TopUpTotals
    /// Whether the card network's event `id` was handled; `recordEvent` says it was.
    func handledEvent(id: String) async throws -> Bool
    func recordEvent(id: String, at date: Date) async throws
    func topUp(id: String, userID: String) async throws -> TopUpRecord?
    func topUp(userID: String, idempotencyKey: String) async throws -> TopUpRecord?
}
