import Foundation
import Logging

/// The ledger's invariants read from a database, for `skiff-server ledger-check` and the bank test
/// (`scripts/bank-test.sh`): the sum of every account's balance is zero, each account's balance is the sum of its
/// postings, each transfer is two postings that sum to zero, and no wallet is below zero.
public struct LedgerCheck: Sendable, Equatable, CustomStringConvertible {
    /// The sum of every account's balance (wallets, cards' funding accounts and the system's): always zero.
    var balanceSum: Int64
    /// Accounts whose balance is not the sum of their postings.
    var accountsOffPostings: Int
    /// Transfers whose postings do not sum to zero, or are not two.
    var unbalancedTransfers: Int
    /// Wallets below zero.
    var negativeWallets: Int

    /// True when every invariant holds.
    public var isClean: Bool {
        balanceSum == 0 && accountsOffPostings == 0 && unbalancedTransfers == 0 && negativeWallets == 0
    }

    /// One line a script can read: `ledger ok|broken balanceSum=… accountsOffPostings=… …`.
    public var description: String {
        "ledger \(isClean ? "ok" : "broken") balanceSum=\(balanceSum) accountsOffPostings=\(accountsOffPostings) "
            + "unbalancedTransfers=\(unbalancedTransfers) negativeWallets=\(negativeWallets)"
    }

    init(_ totals: LedgerTotals) {
        balanceSum = totals.balanceSum
        accountsOffPostings = totals.accountsOffPostings
        unbalancedTransfers = totals.unbalancedTransfers
        negativeWallets = totals.negativeWallets
    }

    /// Opens (and migrates) the database at `location`, reads `LedgerRepository.totals()` in one snapshot, and
    /// closes it. A running server may use the database meanwhile.
    public static func read(_ location: DatabaseLocation, logger: Logger) async throws -> LedgerCheck {
        let store = try await openRepositoryStore(location, logger: logger)
        do {
            let check = LedgerCheck(try await store.repositories.ledger.totals())
            await store.close()
            return check
        } catch {
            await store.close()
            throw error
        }
    }
}
