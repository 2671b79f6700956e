import Foundation
import GRDB

/// The SQLite pool as the repositories use it: GRDB's `DatabasePool` calls, each counted in `usage` while it runs.
///
/// Each call runs GRDB's synchronous API on a thread of `threads`: reads on one thread a core (at most one a reader),
/// writes on one (SQLite has one writer). One hand-off there and one back, where GRDB's `async` API made four.
struct MeteredPool: Sendable {
    let pool: DatabasePool
    let usage: DatabaseUsage
    let threads: SQLiteThreadPools

    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { [pool] in try await threads.reads.run { try pool.read(value) } }
    }

    func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { [pool] in try await threads.reads.run { try pool.unsafeRead(value) } }
    }

    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { [pool] in try await threads.writes.run { try pool.write(updates) } }
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { [pool] in try await threads.writes.run { try pool.writeWithoutTransaction(updates) } }
    }

    /// `updates` in one `BEGIN IMMEDIATE` transaction, committed unless it throws: SQLite's write lock is held from the
    /// first read, so what was read cannot change before the writes (an answer that writes nothing commits nothing).
    func writeImmediately<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            var value: T?
            try db.inTransaction(.immediate) {
                value = try updates(db)
                return .commit
            }
            // `inTransaction` ran the block once, or threw.
            return value!
        }
    }
}

/// The threads of one SQLite database's calls.
struct SQLiteThreadPools: Sendable {
    let reads: SQLiteThreads
    let writes: SQLiteThreads

    /// Reads on as many threads as there are cores, up to the pool's `readers`: a read of a cached database is CPU
    /// work, and threads beyond the cores only take turns. On M (2 cores) 2 threads against 5 served `/v1/me` at
    /// 9,100–9,400 req/s against 5,400–5,500 and the page 16–20 % more (BENCHMARKS.md, issue 25).
    init(readers: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        reads = SQLiteThreads(count: max(1, min(readers, cores)), name: "sqlite-read")
        writes = SQLiteThreads(count: 1, name: "sqlite-write")
    }
}
