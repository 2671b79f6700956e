import Foundation
import SkiffCore
import Testing
@testable import SkiffServer

/// Issue 42: `seed` and the demo data write their history through the ledger, so a seeded user's statement adds up to
/// their balance and `skiff-server ledger-check` passes, on each store.
@Suite("Seeding through the ledger")
struct SeededLedgerTests {
    /// Runs `body` with a test server's configuration on `store`.
    private func withConfiguration(_ store: TestStore, _ body: (SkiffServerConfiguration) async throws -> Void) async throws {
        var server = try TestServer()
        defer { server.remove() }
        switch store {
        case .sqlite:
            try await body(server.configuration)
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                server.configuration.database = .postgres(url: url)
                server.configuration.fingerprintKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()
                try await body(server.configuration)
            }
        }
    }

    /// The user's statement lines summed, their wallet's balance, and their generated transfers: how many, how many
    /// postings they have, and what those moved on the wallet against what the lines other than the opening add up to.
    private func books(
        _ configuration: SkiffServerConfiguration, userID: String
    ) async throws -> (statement: Int64, balance: Int64?, transfers: Int, postings: Int, moved: Int64, generated: Int64) {
        let store = try await openRepositoryStore(configuration.database, logger: TestStore.logger)
        do {
            func number(_ sql: String) async throws -> Int64 { Int64(try await store.strings(sql).first ?? "") ?? -1 }
            let books = (
                statement: try await number("SELECT COALESCE(SUM(amount_minor), 0) || '' FROM transactions WHERE user_id = '\(userID)'"),
                balance: try await store.repositories.ledger.walletBalance(userID: userID, currency: "USD"),
                transfers: Int(try await number("""
                    SELECT COUNT(*) || '' FROM transfers WHERE kind = 'generated' AND (payer_user_id = '\(userID)' OR payee_user_id = '\(userID)')
                    """)),
                postings: Int(try await number("""
                    SELECT COUNT(*) || '' FROM postings JOIN transfers ON transfers.id = postings.transfer_id
                    WHERE transfers.kind = 'generated' AND (payer_user_id = '\(userID)' OR payee_user_id = '\(userID)')
                    """)),
                moved: try await number("""
                    SELECT COALESCE(SUM(postings.amount_minor), 0) || '' FROM postings JOIN transfers ON transfers.id = postings.transfer_id
                    WHERE transfers.kind = 'generated' AND postings.account_id = 'wallet:\(userID):USD'
                    """),
                generated: try await number("""
                    SELECT COALESCE(SUM(amount_minor), 0) || '' FROM transactions
                    WHERE user_id = '\(userID)' AND category <> 'Opening balance'
                    """)
            )
            await store.close()
            return books
        } catch {
            await store.close()
            throw error
        }
    }

    @Test("seed's history adds up to the balance it sets, for a new user and again for an existing one; ledger-check passes", arguments: TestStore.allCases)
    func seedAddsUp(store: TestStore) async throws {
        try await withConfiguration(store) { configuration in
            let created = try await SkiffServerSeeder.seed(
                configuration, countryCode: "+1", phoneNumber: "202 555 0177", fullName: "Load Test",
                password: "load-test-password", transactions: 12_000
            )
            var read = try await books(configuration, userID: created.userID)
            #expect(read.statement == read.balance && read.balance == created.balanceMinor)
            #expect(read.transfers == 12_000 && read.postings == 24_000 && read.moved == read.generated)
            // Far more money out than the opening balance: the balance stayed at zero or above all along.
            #expect(created.balanceMinor >= 0)

            let again = try await SkiffServerSeeder.seed(
                configuration, countryCode: "+1", phoneNumber: "2025550177", fullName: "Load Test",
                password: nil, transactions: 3_000
            )
            #expect(!again.createdUser && again.userID == created.userID)
            read = try await books(configuration, userID: created.userID)
            #expect(read.statement == read.balance && read.balance == again.balanceMinor)
            #expect(read.transfers == 15_000 && read.postings == 30_000 && read.moved == read.generated)

            let check = try await LedgerCheck.read(configuration.database, logger: TestStore.logger)
            #expect(check.isClean, "\(check)")
        }
    }

    @Test("The demo account's statement adds up to its balance; ledger-check passes", arguments: TestStore.allCases)
    func demoAddsUp(store: TestStore) async throws {
        try await withConfiguration(store) { configuration in
            #expect(try await SkiffServerSeeder.seedDemo(configuration))
            let repositories = try await openRepositoryStore(configuration.database, logger: TestStore.logger)
            let phone = try PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)
            let demo = try await repositories.repositories.accounts.user(phone: phone.e164)
            await repositories.close()
            let user = try #require(demo)
            let read = try await books(configuration, userID: user.id)
            #expect(read.statement == read.balance && read.balance == user.balanceMinor)
            #expect(read.transfers == DemoData.transactionCount - 1 && read.moved == read.generated)
            let check = try await LedgerCheck.read(configuration.database, logger: TestStore.logger)
            #expect(check.isClean, "\(check)")
        }
    }

    @Test("A history with a line the wallet cannot pay is refused whole: nothing is written", arguments: TestStore.allCases)
    func refusedWhole(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            try await LedgerRepositoryTests().openAccount(repositories, "a", balance: 1_000)
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            let history = { (amounts: [Int64]) in
                GeneratedHistory(userID: "a", currency: "USD", count: amounts.count, run: GeneratedHistory.makeRun()) { index, _ in
                    NewTransaction(amountMinor: amounts[index], currency: "USD", merchant: "Shop", category: "Shopping", createdAt: now)
                }
            }
            await #expect(throws: GeneratedHistory.Refusal.line(index: 2, amountMinor: -901, balanceMinor: 900)) {
                try await repositories.ledger.record(history([-600, 500, -901]))
            }
            await #expect(throws: GeneratedHistory.Refusal.line(index: 0, amountMinor: 0, balanceMinor: 1_000)) {
                try await repositories.ledger.record(history([0]))
            }
            await #expect(throws: GeneratedHistory.Refusal.noWallet) {
                try await repositories.ledger.record(GeneratedHistory(userID: "nobody", currency: "USD", count: 1, run: "R") { _, _ in
                    NewTransaction(amountMinor: 1, currency: "USD", merchant: "Shop", category: "Shopping", createdAt: now)
                })
            }
            #expect(try await repositories.ledger.walletBalance(userID: "a", currency: "USD") == 1_000)
            #expect(try await store.strings("SELECT COUNT(*) || '' FROM transfers WHERE kind = 'generated'") == ["0"])
            #expect(try await store.strings("SELECT COUNT(*) || '' FROM transactions WHERE category = 'Shopping'") == ["0"])
            // The same lines that the wallet can pay are written, and move the balance by their sum.
            #expect(try await repositories.ledger.record(history([-600, 500, -900])) == 0)
            #expect(try await repositories.ledger.totals() == LedgerTotals(balanceSum: 0, accountsOffPostings: 0, unbalancedTransfers: 0, negativeWallets: 0))
        }
    }
}
