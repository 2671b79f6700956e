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

    /// Runs "first" and then `keys` while the writer is held: "first" is taken alone by the commit that waits for the
    /// writer, and `keys` all wait for the next one, which takes them together. Answers each key's result.
    private static func runTogether(
        _ keys: [String], on commit: SQLiteGroupCommit<String, Int>, _ database: SQLiteDatabase
    ) async throws -> [String: Result<Int, any Error>] {
        let gate = DispatchSemaphore(value: 0)
        let holding = Atomic<Bool>(false)
        let holder = Task {
            try await database.metered.write { _ in
                holding.store(true, ordering: .releasing)
                gate.wait()
            }
        }
        while !holding.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(2)) }
        return try await withThrowingTaskGroup(of: (String, Result<Int, any Error>).self) { group in
            group.addTask { ("first", await Self.result(commit, "first")) }
            while commit.pending.waiting != 0 || commit.pending.unanswered != 1 { try await Task.sleep(for: .milliseconds(2)) }
            for key in keys {
                group.addTask { (key, await Self.result(commit, key)) }
            }
            while commit.pending.waiting < keys.count { try await Task.sleep(for: .milliseconds(2)) }
            gate.signal()
            try await holder.value
            var results: [String: Result<Int, any Error>] = [:]
            for try await (key, result) in group { results[key] = result }
            #expect((try? results["first"]?.get()) == 1)
            results["first"] = nil
            return results
        }
    }

    private static func result(_ commit: SQLiteGroupCommit<String, Int>, _ key: String) async -> Result<Int, any Error> {
        do {
            return .success(try await commit.run(key))
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
}
