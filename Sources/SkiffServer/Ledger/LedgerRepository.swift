import Foundation
import SkiffCore

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
