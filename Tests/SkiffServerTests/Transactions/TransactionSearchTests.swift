import Foundation
import GRDB
import Testing
@testable import SkiffServer

/// Search over a transfer's note and reference (`TransactionSearch.columns`), on each store: through every path a
/// search takes (the short window, the near walk, the index), kept by the index through updates and deletes with
/// NULLs about, and found in rows that were there before the migration that indexed the two columns.
@Suite("Transaction search: notes and references")
struct TransactionSearchTests {
    let ledger = LedgerRepositoryTests()
    var now: Date { ledger.now }

    /// The transfer `fill` makes, older than `TransactionSearch.nearWalk` lines of both sides: a longer query about
    /// it is answered by the index.
    static let olderReference = "SKF-7GQ2MZ9W"
    static let olderNote = "Rent for Q3 🏠"
    /// The transfer `fill` makes last, the newest line of both sides: a longer query about it is answered by the walk.
    static let newerReference = "SKF-KX4RT8PD"
    static let newerNote = "Concert tickets"

    /// Ann ("a") pays Bea ("b") twice, `nearWalk` + 100 plain lines (no note, no reference) apart on both sides; Cy
    /// ("c") has neither. Returns the two transfers' ids, older first.
    private func fill(_ repositories: Repositories) async throws -> (older: String, newer: String) {
        for id in ["a", "b", "c"] { try await ledger.openAccount(repositories, id, balance: id == "a" ? 100_000 : 0) }
        var older = ledger.order("a", "b", 2_500, key: "k-older", note: Self.olderNote)
        older.reference = Self.olderReference
        guard case .made(let first) = try await repositories.ledger.transfer(older) else {
            throw TestFailure("the older transfer was not made")
        }
        let plain = TransactionSearch.nearWalk + 100
        let start = now
        for user in ["a", "b"] {
            try await repositories.transactions.insert(userID: user, count: plain) { index in
                NewTransaction(
                    amountMinor: -1, currency: "USD", merchant: "Book Shop", category: "Books",
                    createdAt: start.addingTimeInterval(Double(index + 1))
                )
            }
        }
        var newer = ledger.order("a", "b", 700, key: "k-newer", note: Self.newerNote)
        newer.reference = Self.newerReference
        newer.at = now.addingTimeInterval(Double(plain + 1))
        newer.dayStart = TransferService.startOfUTCDay(newer.at)
        guard case .made(let second) = try await repositories.ledger.transfer(newer) else {
            throw TestFailure("the newer transfer was not made")
        }
        return (first.id, second.id)
    }

    /// The ids of the transfers behind the first page of `userID`'s lines matching `query`.
    private func found(_ repositories: Repositories, _ userID: String, _ query: String) async throws -> [String?] {
        try await repositories.transactions.page(userID: userID, after: nil, query: query, limit: 20).map(\.transferID)
    }

    /// Every query about the two transfers finds each one's line on both sides, and nothing of Cy's.
    private func expectFound(
        _ repositories: Repositories, older: String, newer: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let queries: [(String, String)] = [
            // Three characters or more, past the near walk: the index.
            ("rent for", older), ("Q3 🏠", older), (Self.olderReference, older), ("skf-7gq2", older), ("MZ9W", older),
            // Shorter: the newest transactions, matched directly.
            ("🏠", older), ("9w", older), ("q3", older),
            // Three characters or more, within the near walk.
            ("CONCERT", newer), ("tickets", newer), (Self.newerReference.lowercased(), newer), ("T8PD", newer),
            ("8p", newer),
        ]
        for (query, transfer) in queries {
            for user in ["a", "b"] {
                #expect(try await found(repositories, user, query) == [transfer], "\(user): \(query)", sourceLocation: sourceLocation)
            }
            #expect(try await found(repositories, "c", query).isEmpty, "c: \(query)", sourceLocation: sourceLocation)
        }
        // Both transfers share the prefix: every path answers both, newest first.
        #expect(try await found(repositories, "a", "SKF-") == [newer, older], sourceLocation: sourceLocation)
        #expect(try await found(repositories, "a", "f-") == [newer, older], sourceLocation: sourceLocation)
        // The lines without a note or reference are found as before, and are not found by what they lack.
        #expect(try await repositories.transactions.page(userID: "a", after: nil, query: "book", limit: 20).count == 20, sourceLocation: sourceLocation)
        #expect(try await found(repositories, "a", "nothing like it").isEmpty, sourceLocation: sourceLocation)
    }

    @Test("A transfer's note and reference find its line on both sides, by three or more characters and by fewer", arguments: TestStore.allCases)
    func notesAndReferences(store: TestStore) async throws {
        try await store.withFresh { store in
            let (older, newer) = try await fill(store.repositories)
            try await expectFound(store.repositories, older: older, newer: newer)
        }
    }

    @Test("The index follows notes and references through updates and deletes, to and from NULL", arguments: TestStore.allCases)
    func updatesAndDeletes(store: TestStore) async throws {
        try await store.withFresh { store in
            let repositories = store.repositories
            let (older, newer) = try await fill(repositories)
            try await store.execute("UPDATE transactions SET note = 'Birthday gift' WHERE user_id = 'a' AND transfer_id = '\(older)'")
            #expect(try await found(repositories, "a", "birthday") == [older])
            #expect(try await found(repositories, "a", "rent for").isEmpty)
            #expect(try await found(repositories, "b", "rent for") == [older])

            try await store.execute("UPDATE transactions SET note = NULL, reference = NULL WHERE user_id = 'a' AND transfer_id = '\(older)'")
            #expect(try await found(repositories, "a", "birthday").isEmpty)
            #expect(try await found(repositories, "a", "MZ9W").isEmpty)
            #expect(try await found(repositories, "b", "MZ9W") == [older])

            // From NULL to a value: the oldest plain line of Ann's, past the near walk.
            try await store.execute("""
                UPDATE transactions SET note = 'Late fee', reference = 'SKF-LATE0001'
                WHERE user_id = 'a' AND merchant = 'Book Shop' AND created_at = \(now.addingTimeInterval(1).millisecondsSince1970)
                """)
            #expect(try await repositories.transactions.page(userID: "a", after: nil, query: "late fee", limit: 5).map(\.merchant) == ["Book Shop"])
            #expect(try await repositories.transactions.page(userID: "a", after: nil, query: "late0001", limit: 5).count == 1)

            try await store.execute("DELETE FROM transactions WHERE user_id = 'b' AND transfer_id = '\(older)'")
            try await store.execute("DELETE FROM transactions WHERE merchant = 'Book Shop' AND id % 7 = 0")
            #expect(try await found(repositories, "b", "MZ9W").isEmpty)
            #expect(try await found(repositories, "b", "rent for").isEmpty)
            #expect(try await found(repositories, "a", "tickets") == [newer])
            #expect(try await found(repositories, "b", "tickets") == [newer])

            if let sqlite = store as? SQLiteDatabase {
                // The index against the rows it says it holds: a 'delete' given other values than were indexed
                // leaves it wrong without an error.
                try await sqlite.pool.write { db in
                    try db.execute(sql: "INSERT INTO transactions_search(transactions_search, rank) VALUES ('integrity-check', 1)")
                }
            }
        }
    }

    @Test("A database migrated from before notes and references were indexed finds the transfers it already held", arguments: TestStore.allCases)
    func migratedHistory(store: TestStore) async throws {
        switch store {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-search-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("skiff.sqlite").path
            let ids: (older: String, newer: String)
            do {
                let before = try SQLiteDatabase(path: path, migrating: false)
                try SQLiteMigrations.migrate(before.pool, upTo: .spendingMonths)
                var filled: (older: String, newer: String)?
                try await before.withLaterColumns { filled = try await fill(before.repositories) }
                ids = try #require(filled)
                // The index of merchant and category alone does not know the note: the rebuild is what finds it.
                #expect(try await found(before.repositories, "a", "rent for").isEmpty)
            }
            let migrated = try SQLiteDatabase(path: path)
            #expect(try await migrated.pendingMigrations().isEmpty)
            try await expectFound(migrated.repositories, older: ids.older, newer: ids.newer)
            try await migrated.pool.write { db in
                try db.execute(sql: "INSERT INTO transactions_search(transactions_search, rank) VALUES ('integrity-check', 1)")
            }
        case .postgres:
            try await TestPostgres.withFreshDatabase { url in
                let before = try await PostgresDatabase.open(url: url, logger: TestStore.logger, migrating: false)
                let ids: (older: String, newer: String)
                do {
                    try await PostgresMigrations.migrate(before.client, logger: TestStore.logger, upTo: .unreadLockOrder)
                    var filled: (older: String, newer: String)?
                    try await before.withLaterColumns { filled = try await fill(before.repositories) }
                    ids = try #require(filled)
                } catch {
                    await before.close()
                    throw error
                }
                await before.close()
                let migrated = try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger)
                do {
                    #expect(try await migrated.pendingMigrations().isEmpty)
                    try await expectFound(migrated.repositories, older: ids.older, newer: ids.newer)
                    let indexes = try await migrated.strings("""
                        SELECT indexname::TEXT FROM pg_indexes
                        WHERE tablename = 'transactions' AND indexname LIKE '%\\_trgm' ORDER BY indexname
                        """)
                    #expect(indexes == [
                        "transactions_category_trgm", "transactions_merchant_trgm", "transactions_note_trgm",
                        "transactions_reference_trgm",
                    ])
                } catch {
                    await migrated.close()
                    throw error
                }
                await migrated.close()
            }
        }
    }
}
