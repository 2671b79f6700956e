import GRDB

/// The SQLite pool as the repositories use it: GRDB's `DatabasePool` calls, each counted in `usage` while it runs.
struct MeteredPool: Sendable {
    let pool: DatabasePool
    let usage: DatabaseUsage

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { try await pool.read(value) }
    }

    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { try await pool.unsafeRead(value) }
    }

    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { try await pool.write(updates) }
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await usage.measure { try await pool.writeWithoutTransaction(updates) }
    }
}
