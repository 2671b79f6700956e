import Foundation
import GRDB
import Synchronization
import Testing
@testable import SkiffServer

/// SQLite's commit observer hands on exactly the ids of the events a transaction wrote: a transfer also writes the
/// search index's shadow tables, whose row ids are not events' and must not widen the range the hub reads.
@Suite("SQLite event commits")
struct SQLiteEventRepositoryTests {
    @Test("A transfer's commit rings with the range of its own events, not the search index's row ids")
    func transferRange() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let fixtures = LedgerRepositoryTests()
            try await fixtures.openAccount(database.repositories, "a", balance: 10_000)
            try await fixtures.openAccount(database.repositories, "b", balance: 0)
            let ranges = Mutex<[ClosedRange<Int64>]>([])
            let observer = SQLiteEventCommitObserver { range, _ in ranges.withLock { $0.append(range) } }
            try await database.metered.writeWithoutTransaction { db in db.add(transactionObserver: observer, extent: .observerLifetime) }
            let before = try await database.metered.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM events") } ?? 0

            for key in ["k1", "k2"] {
                guard case .made = try await database.repositories.ledger.transfer(fixtures.order("a", "b", 100, key: key)) else {
                    Issue.record("transfer \(key) not made")
                    return
                }
            }

            let written = try await database.metered.read { db in
                try Int64.fetchAll(db, sql: "SELECT id FROM events WHERE id > ? ORDER BY id", arguments: [before])
            }
            // Balances, statement lines and the notification: several events a transfer, in one range each.
            #expect(written.count >= 2 * 4)
            let seen = ranges.withLock { $0 }
            #expect(seen.count == 2)
            // Nothing but the events written: together the two ranges hold exactly their ids.
            #expect(seen.first?.lowerBound == written.first && seen.last?.upperBound == written.last)
            #expect(seen.map(\.count).reduce(0, +) == written.count)
            withExtendedLifetime(observer) {}
        }
    }
}
