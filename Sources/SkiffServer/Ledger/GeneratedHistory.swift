import Foundation

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
