import Foundation
import GRDB
import SkiffCore
import Testing
@testable import SkiffServer

/// Issue 42: money sent to another person is not spending (`SpendingRollup.isSpending`), on each store, through the
/// ledger's own transfers, and in a database migrated from before the rule (its rollups rebuilt from the history).
@Suite("Spending rollup: transfers between people are not spending")
struct SpendingNotTransfersTests {
    let ledger = LedgerRepositoryTests()
    /// Within `SpendingRollupTests.months`: 2026-09-21.
    var now: Date { ledger.now }
    var september: Range<Date> {
        let month = CalendarMonth(containing: now)
        return month.start..<month.end
    }

    /// Ann sends Bea $12.50 through the ledger and buys a coffee; answers what Ann spent in September.
    private func sendAndBuy(_ repositories: Repositories, key: String) async throws -> [String: Int64] {
        let outcome = try await repositories.ledger.transfer(ledger.order("a", "b", 1_250, key: key))
        guard case .made = outcome else { throw TestFailure("not made: \(outcome)") }
        try await repositories.transactions.insert(userID: "a", count: 1) { _ in
            NewTransaction(amountMinor: -450, currency: "USD", merchant: "Blue Bottle Coffee", category: "Coffee", createdAt: now)
        }
        return try await spent(repositories, "a")
    }

    private func spent(_ repositories: Repositories, _ user: String) async throws -> [String: Int64] {
        let records = try await repositories.transactions.spending(userID: user, in: [september]).first ?? []
        return Dictionary(uniqueKeysWithValues: records.map { ($0.category, $0.amountMinor) })
    }

    @Test("A transfer's payer line is not spending; a purchase beside it is", arguments: TestStore.allCases)
    func transferIsNotSpending(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            try await ledger.openAccount(repositories, "a", balance: 10_000)
            try await ledger.openAccount(repositories, "b", balance: 500)
            #expect(try await sendAndBuy(repositories, key: "k1") == ["Coffee": 450])
            #expect(try await sendAndBuy(repositories, key: "k2") == ["Coffee": 900])
            #expect(try await spent(repositories, "b").isEmpty)
            // The lines are there, and are money out: only the rule keeps them out of spending.
            let lines = try await repositories.transactions.page(userID: "a", after: nil, query: nil, limit: 10)
            #expect(lines.filter { $0.category == StatementLine.transferCategory }.map(\.amountMinor) == [-1_250, -1_250])
        }
    }

    @Test("A database migrated from before the rule has the transfers it held taken out of its rollups", arguments: TestStore.allCases)
    func migrationRebuilds(store: TestStore) async throws {
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-spending-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("skiff.sqlite").path
            do {
                let before = try SQLiteDatabase(path: path, migrating: false)
                try SQLiteMigrations.migrate(before.pool, upTo: .searchNoteReference)
                try await before.withLaterColumns { try await fill(before.repositories) }
            }
            let migrated = try SQLiteDatabase(path: path)
            #expect(try await migrated.pendingMigrations().isEmpty)
            try await expectRebuilt(migrated)
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                let before = try await PostgresDatabase.open(url: url, logger: TestStore.logger, migrating: false)
                do {
                    try await PostgresMigrations.migrate(before.client, logger: TestStore.logger, upTo: .searchNoteReference)
                    try await before.withLaterColumns { try await fill(before.repositories) }
                } catch {
                    await before.close()
                    throw error
                }
                await before.close()
                let migrated = try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger)
                do {
                    #expect(try await migrated.pendingMigrations().isEmpty)
                    try await expectRebuilt(migrated)
                } catch {
                    await migrated.close()
                    throw error
                }
                await migrated.close()
            }
        }
    }

    /// Before the rule: the transfer was summed as spending.
    private func fill(_ repositories: Repositories) async throws {
        try await ledger.openAccount(repositories, "a", balance: 10_000)
        try await ledger.openAccount(repositories, "b", balance: 500)
        #expect(try await sendAndBuy(repositories, key: "k1") == ["Coffee": 450, StatementLine.transferCategory: 1_250])
    }

    private func expectRebuilt(_ store: any RepositoryStore) async throws {
        #expect(try await spent(store.repositories, "a") == ["Coffee": 450])
        for table in ["spending_days", "spending_months"] {
            #expect(try await store.strings("SELECT category FROM \(table) WHERE user_id = 'a'") == ["Coffee"])
        }
        // And kept by the rule from then on.
        #expect(try await sendAndBuy(store.repositories, key: "k2") == ["Coffee": 900])
        #expect(try await store.strings("SELECT category FROM spending_months WHERE user_id = 'a'") == ["Coffee"])
    }
}
