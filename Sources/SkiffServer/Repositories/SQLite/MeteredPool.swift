import GRDB

/// The SQLite pool as the repositories use it: GRDB's `DatabasePool` calls, each counted in `usage` while it runs.
///
/// Every call runs on the calling thread, through GRDB's synchronous API: a read takes one of the pool's readers
/// and a write waits for the one writer there, instead of leaving for the connection's dispatch queue and coming
/// back (two thread hand-offs, most of an authenticated read's cost). The calls stay `async` for the repositories'
/// protocols, which PostgreSQL's connections need. Decision 0165 says why blocking a task's thread is kept here.
struct MeteredPool: Sendable {
    let pool: DatabasePool
    let usage: DatabaseUsage

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try usage.measureNow { try Self.onThisThread { try pool.read(value) } }
    }

    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try usage.measureNow { try Self.onThisThread { try pool.unsafeRead(value) } }
    }

    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try usage.measureNow { try Self.onThisThread { try pool.write(updates) } }
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try usage.measureNow { try Self.onThisThread { try pool.writeWithoutTransaction(updates) } }
    }

    /// Runs `body` outside any async context, so that GRDB's synchronous overloads are the ones chosen in it.
    private static func onThisThread<T>(_ body: () throws -> T) rethrows -> T { try body() }
}
