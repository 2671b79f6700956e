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
    private static func prepare(_ database: SQLiteDatabase) async throws -> SQLiteGroupCommit<String, Int, NoBatchTail> {
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
    static func runTogether<Work: Sendable, Outcome: Sendable, Tail: SQLiteBatchTail & SendableMetatype>(
        first: Work, _ works: [(String, Work)], on commit: SQLiteGroupCommit<Work, Outcome, Tail>, _ database: SQLiteDatabase
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
        _ keys: [String], on commit: SQLiteGroupCommit<String, Int, NoBatchTail>, _ database: SQLiteDatabase
    ) async throws -> [String: Result<Int, any Error>] {
        let (first, results) = try await runTogether(first: "first", keys.map { ($0, $0) }, on: commit, database)
        #expect((try? first.get()) == 1)
        return results
    }

    private static func result<Work: Sendable, Outcome: Sendable, Tail: SQLiteBatchTail>(
        _ commit: SQLiteGroupCommit<Work, Outcome, Tail>, _ work: Work
    ) async -> Result<Outcome, any Error> {
        do {
            return .success(try await commit.run(work))
        } catch {
            return .failure(error)
        }
    }

    /// The keys in `table` (`keys`, or `late`, where tails write).
    private static func stored(_ database: SQLiteDatabase, in table: String = "keys") async throws -> Set<String> {
        Set(try await database.metered.read { db in try String.fetchAll(db, sql: "SELECT key FROM \(table)") })
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

    /// Keys the pieces of a batch leave for its end, where a key starting with "late-bad" breaks the table's check.
    struct LateKeys: SQLiteBatchTail {
        var keys: [String] = []

        func write(_ db: Database) throws {
            for key in keys { try db.execute(sql: "INSERT INTO late (key) VALUES (?)", arguments: [key]) }
        }
    }

    /// `prepare`'s keys, and a group commit whose pieces named "late…" also leave their key for the batch's end.
    private static func prepareLate(_ database: SQLiteDatabase) async throws -> SQLiteGroupCommit<String, Int, LateKeys> {
        _ = try await prepare(database)
        try await database.metered.write { db in
            try db.execute(sql: "CREATE TABLE late (key TEXT PRIMARY KEY CHECK (key NOT LIKE 'late-bad%'))")
        }
        return SQLiteGroupCommit(pool: database.metered) { key, tail, db in
            try db.execute(sql: "INSERT INTO keys (key) VALUES (?)", arguments: [key])
            if key.hasPrefix("late") { tail.keys.append(key) }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM late") ?? 0
        }
    }

    @Test("What the pieces leave in the tail is written once, after the last piece, in the batch's commit")
    func tailAfterThePieces() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let commit = try await Self.prepareLate(database)

            let (first, results) = try await Self.runTogether(
                first: "late-0", ["late-1", "a", "late-2"].map { ($0, $0) }, on: commit, database
            )

            #expect(try first.get() == 0)
            // No piece saw a tail's key of its own batch: they are written after the last piece.
            #expect(results.mapValues { try? $0.get() } == ["late-1": 1, "a": 1, "late-2": 1])
            #expect(try await Self.stored(database, in: "late") == ["late-0", "late-1", "late-2"])
            #expect(commit.commitsBySize == [1: 1, 3: 1])
        }
    }

    @Test("A tail that fails: the batch's pieces are committed one at a time, and only the piece that left the bad write fails")
    func tailFails() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let commit = try await Self.prepareLate(database)
            let keys = ["a", "late-1", "late-bad", "b"]

            let (first, results) = try await Self.runTogether(first: "first", keys.map { ($0, $0) }, on: commit, database)

            #expect((try? first.get()) == 0)
            #expect(throws: DatabaseError.self) { try results["late-bad"]?.get() }
            for key in ["a", "late-1", "b"] { #expect((try? results[key]?.get()) != nil) }
            #expect(try await Self.stored(database) == ["first", "a", "late-1", "b"])
            #expect(try await Self.stored(database, in: "late") == ["late-1"])
            // The batch of four failed whole (no commit), then each piece went alone.
            #expect(commit.commitsBySize == [1: 4])
        }
    }

    @Test("Transfers in one commit: each sees the ones before it, a refusal writes nothing, a refused transfer leaves its step-up unused")
    func transfersInOneCommit() async throws {
        try await SQLiteDatabase.withTemporary { database in
            let fixtures = LedgerRepositoryTests()
            let repositories = database.repositories
            // a's day stays within the step-up amount ($100.00): only the proof's transfers carry one.
            for (user, balance) in [("a", Int64(5_000)), ("b", 0), ("c", 0), ("d", 0)] {
                try await fixtures.openAccount(repositories, user, balance: balance)
            }
            let stepUp = StepUpRecord(
                tokenHash: "proof", sessionTokenHash: "session", userID: "a", payeeUserID: "d", amountMinor: 1_000,
                createdAt: fixtures.now, expiresAt: fixtures.now.addingTimeInterval(300)
            )
            try await repositories.ledger.createStepUp(stepUp)
            let use = StepUpUse(tokenHash: "proof", sessionTokenHash: "session")
            let first = fixtures.order("a", "b", 1_000, key: "first")
            var withProof = fixtures.order("a", "d", 1_000, key: "proof-1")
            withProof.stepUp = use
            var proofAgain = fixtures.order("a", "d", 1_000, key: "proof-2")
            proofAgain.stepUp = use
            let works = [
                ("most", fixtures.order("a", "b", 3_500, key: "most")),
                ("over", fixtures.order("a", "c", 1_000, key: "over")),
                ("proof-1", withProof),
                ("refund", fixtures.order("b", "a", 1_000, key: "refund")),
                ("proof-2", proofAgain),
                ("twin", fixtures.order("a", "b", 3_500, key: "most")),
            ]

            // The statements that write statement lines, on the writer's connection, which the commits use.
            let lineInserts = Mutex(0)
            try await database.metered.write { db in
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event, statement.sql.hasPrefix("INSERT INTO transactions") {
                        lineInserts.withLock { $0 += 1 }
                    }
                }
            }

            let (firstResult, results) = try await Self.runTogether(
                first: first, works, on: database.transfers, database
            )

            #expect(database.transfers.commitsBySize == [1: 1, 6: 1])
            // One INSERT a commit (FTS5 writes a segment a statement): "first" alone, then the six lines of the three
            // transfers made in the batch of six.
            #expect(lineInserts.withLock { $0 } == 2)
            guard case .made = try firstResult.get(), case .made = try results["most"]?.get() else {
                Issue.record("first or most not made")
                return
            }
            // 5,000 − 1,000 − 3,500 leaves 500: 1,000 more is refused, and writes nothing.
            #expect(try results["over"]?.get() == .insufficientFunds)
            // The proof's first use is refused with it (1,000 is over the 500 left), so it stays unused for the next,
            // once b has sent 1,000 back.
            #expect(try results["proof-1"]?.get() == .insufficientFunds)
            guard case .made = try results["refund"]?.get(), case .made = try results["proof-2"]?.get() else {
                Issue.record("refund or proof-2 not made: \(String(describing: results["refund"])), \(String(describing: results["proof-2"]))")
                return
            }
            guard case .replayed = try results["twin"]?.get() else {
                Issue.record("the same key again in the batch was not replayed")
                return
            }
            #expect(try await repositories.ledger.walletBalance(userID: "a", currency: "USD") == 500)
            #expect(try await repositories.ledger.walletBalance(userID: "c", currency: "USD") == 0)
            #expect(try await repositories.ledger.walletBalance(userID: "d", currency: "USD") == 1_000)
            let totals = try await repositories.ledger.totals()
            #expect(totals.accountsOffPostings == 0 && totals.unbalancedTransfers == 0 && totals.negativeWallets == 0)
            // Nothing of the refusals: no statement line or notification for c, the only payee they named alone.
            let forC = try await database.metered.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE user_id = 'c' AND transfer_id IS NOT NULL") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notifications WHERE user_id = 'c' AND id LIKE 'n-%'") ?? -1)
            }
            #expect(forC == (0, 0))
            // Every line is in the search index: Bea Baker's name is on a's two lines to her and the one from her.
            let lines = try await database.metered.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.user_id, t.amount_minor FROM transactions_search AS s JOIN transactions AS t ON t.id = s.rowid
                    WHERE transactions_search MATCH '"Bea B"' ORDER BY t.id
                    """).map { [$0["user_id"] as String, String($0["amount_minor"] as Int64)] }
            }
            #expect(lines == [["a", "-1000"], ["a", "-3500"], ["a", "1000"]])
        }
    }
}
