import GRDB

/// The SQLite pool as the repositories use it: GRDB's `DatabasePool` calls, each counted in `usage` while it runs.
///
/// Each call runs GRDB's synchronous API on a thread of `threads`: reads on as many threads as the pool has readers,
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
}

/// The threads of one SQLite database's calls.
struct SQLiteThreadPools: Sendable {
    let reads: SQLiteThreads
    let writes: SQLiteThreads

    init(readers: Int) {
        reads = SQLiteThreads(count: readers, name: "sqlite-read")
        writes = SQLiteThreads(count: 1, name: "sqlite-write")
    }
}
