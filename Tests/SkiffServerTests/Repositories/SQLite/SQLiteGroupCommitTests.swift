import Foundation
import GRDB
import Synchronization
import Testing
@testable import SkiffServer

/// Group commit: callers that arrive while the writer is busy share one transaction; a piece that throws is rolled
/// back alone; a commit that fails answers everyone in it.
@Suite("SQLite group commit")
struct SQLiteGroupCommitTests {
    struct Refused: Error, Equatable {}

    /// A table of keys, and a group commit that inserts one key per piece of work. A key starting with "refuse"
    /// is refused (nothing written); one starting with "throw" is written and then throws.
    private static func prepare(_ database: SQLiteDatabase) async throws -> SQLiteGroupCommit<String, Int> {
        try await database.metered.write { db in
            try db.execute(sql: "CREATE TABLE parents (id TEXT PRIMARY KEY)")
            try db.execute(sql: """
                CREATE TABLE keys (key TEXT PRIMARY KEY,
                                   parent TEXT REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)
                """)
        }
        return SQLiteGroupCommit(pool: database.metered) { key, db in
            if key.hasPrefix("refuse") { return -1 }
            try db.execute(
                sql: "INSERT INTO keys (key, parent) VALUES (?, ?)",
                arguments: [key, key.hasPrefix("orphan") ? "nobody" : nil]
            )
            if key.hasPrefix("throw") { throw Refused() }
            // What this piece sees: every key the pieces before it wrote, in this batch or earlier.
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM keys") ?? 0
        }
    }

    /// Runs `first` and then `works` while the writer is held: `first` is taken alone by the commit that waits for the
    /// writer, and `works` all wait for the next one, which takes them together. Answers `first`'s result and each
    /// named work's.
    static func runTogether<Work: Sendable, Outcome: Sendable>(
        first: Work, _ works: [(String, Work)], on commit: SQLiteGroupCommit<Work, Outcome>, _ database: SQLiteDatabase
    ) async throws -> (first: Result<Outcome, any Error>, results: [String: Result<Outcome, any Error>]) {
        let gate = DispatchSemaphore(value: 0)
        let holding = Atomic<Bool>(false)
        let holder = Task {
            try await database.metered.write { _ in
                holding.store(true, ordering: .releasing)
                gate.wait()
            }
        }
        while !holding.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(2)) }
        return try await withThrowingTaskGroup(of: (String?, Result<Outcome, any Error>).self) { group in
            group.addTask { (nil, await Self.result(commit, first)) }
            while commit.pending.waiting != 0 || commit.pending.unanswered != 1 { try await Task.sleep(for: .milliseconds(2)) }
            for (name, work) in works {
                group.addTask { (name, await Self.result(commit, work)) }
            }
            while commit.pending.waiting < works.count { try await Task.sleep(for: .milliseconds(2)) }
            gate.signal()
            try await holder.value
            var firstResult: Result<Outcome, any Error>?
            var results: [String: Result<Outcome, any Error>] = [:]
            for try await (name, result) in group {
                if let name { results[name] = result } else { firstResult = result }
            }
            return (firstResult ?? .failure(CancellationError()), results)
        }
    }

    private static func runTogether(
        _ keys: [String], on commit: SQLiteGroupCommit<String, Int>, _ database: SQLiteDatabase
    ) async throws -> [String: Result<Int, any Error>] {
        let (first, results) = try await runTogether(first: "first", keys.map { ($0, $0) }, on: commit, database)
        #expect((try? first.get()) == 1)
        return results
    }

    private static func result<Work: Sendable, Outcome: Sendable>(
        _ commit: SQLiteGroupCommit<Work, Outcome>, _ work: Work
    ) async -> Result<Outcome, any Error> {
        do {
            return .success(try await commit.run(work))
        } catch {
            return .failure(error)
        }
    }

    private static func stored(_ database: SQLiteDatabase) async throws -> Set<String> {
        Set(try await database.metered.read { db in try String.fetchAll(db, sql: "SELECT key FROM keys") })
    }

    @Test("Callers that arrive while the writer is busy share a commit, and each sees the ones before it")
    func shared() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let commit = try await Self.prepare(database)
            let keys = (1...10).map { "k\($0)" }

            let results = try await Self.runTogether(keys, on: commit, database)

            #expect(commit.commitsBySize == [1: 1, 10: 1])
            // Each saw the keys before it: after "first", the counts are 2...11, each once.
            #expect(Set(results.values.compactMap { try? $0.get() }) == Set(2...11))
            #expect(try await Self.stored(database) == Set(keys + ["first"]))
        }
    }

    @Test("A piece that throws is rolled back alone: its caller gets the error, the others of its batch are committed")
    func oneThrows() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let commit = try await Self.prepare(database)
            let keys = ["a", "b", "throw-c", "refuse-d", "e"]

            let results = try await Self.runTogether(keys, on: commit, database)

            #expect(throws: Refused.self) { try results["throw-c"]?.get() }
            #expect(try results["refuse-d"]?.get() == -1)
            for key in ["a", "b", "e"] { #expect((try? results[key]?.get()) != nil) }
            #expect(try await Self.stored(database) == ["first", "a", "b", "e"])
            // The batch ran again without the piece that threw: one commit of four.
            #expect(commit.commitsBySize == [1: 1, 4: 1])
        }
    }

    @Test("A commit that fails answers every caller of its batch with the error, and nothing of the batch is written")
    func commitFails() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let commit = try await Self.prepare(database)
            // The orphan's deferred foreign key is checked at COMMIT, which then fails for the whole transaction.
            let keys = ["a", "orphan", "b"]

            let results = try await Self.runTogether(keys, on: commit, database)

            for key in keys { #expect(throws: DatabaseError.self) { try results[key]?.get() } }
            #expect(try await Self.stored(database) == ["first"])
            #expect(commit.commitsBySize == [1: 1])
        }
    }

    @Test("Transfers in one commit: each sees the ones before it, a refusal writes nothing, a used step-up is refused")
    func transfersInOneCommit() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let fixtures = LedgerRepositoryTests()
            let repositories = database.repositories
            for (user, balance) in [("a", Int64(10_000)), ("b", 0), ("c", 0), ("d", 0)] {
                try await fixtures.openAccount(repositories, user, balance: balance)
            }
            let stepUp = StepUpRecord(
                tokenHash: "proof", sessionTokenHash: "session", userID: "a", createdAt: fixtures.now,
                expiresAt: fixtures.now.addingTimeInterval(300)
            )
            try await repositories.ledger.createStepUp(stepUp)
            let use = StepUpUse(tokenHash: "proof", sessionTokenHash: "session")
            let first = fixtures.order("a", "b", 2_000, key: "first")
            var withProof = fixtures.order("a", "c", 3_000, key: "proof-1")
            withProof.stepUp = use
            var proofAgain = fixtures.order("a", "d", 1_000, key: "proof-2")
            proofAgain.stepUp = use
            let works = [
                ("most", fixtures.order("a", "b", 7_000, key: "most")),
                ("over", fixtures.order("a", "c", 2_000, key: "over")),
                ("proof-1", withProof),
                ("proof-2", proofAgain),
                ("twin", fixtures.order("a", "b", 7_000, key: "most")),
            ]

            let (firstResult, results) = try await Self.runTogether(
                first: first, works, on: database.transfers, database
            )

            #expect(database.transfers.commitsBySize == [1: 1, 5: 1])
            guard case .made = try firstResult.get(), case .made = try results["most"]?.get() else {
                Issue.record("first or most not made")
                return
            }
            // 10,000 − 2,000 − 7,000 leaves 1,000: 2,000 more is refused, and writes nothing.
            #expect(try results["over"]?.get() == .insufficientFunds)
            // The proof's first use is refused with it (3,000 is over the 1,000 left), so it stays unused for the next.
            #expect(try results["proof-1"]?.get() == .insufficientFunds)
            guard case .made = try results["proof-2"]?.get() else {
                Issue.record("proof-2 not made: \(String(describing: results["proof-2"]))")
                return
            }
            guard case .replayed = try results["twin"]?.get() else {
                Issue.record("the same key again in the batch was not replayed")
                return
            }
            #expect(try await repositories.ledger.walletBalance(userID: "a", currency: "USD") == 0)
            #expect(try await repositories.ledger.walletBalance(userID: "c", currency: "USD") == 0)
            let totals = try await repositories.ledger.totals()
            #expect(totals.accountsOffPostings == 0 && totals.unbalancedTransfers == 0 && totals.negativeWallets == 0)
            // Nothing of the refusals: no statement line or notification for c, the only payee they named alone.
            let forC = try await database.metered.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE user_id = 'c' AND transfer_id IS NOT NULL") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notifications WHERE user_id = 'c' AND id LIKE 'n-%'") ?? -1)
            }
            #expect(forC == (0, 0))
        }
    }
}
