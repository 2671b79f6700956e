import Synchronization

/// How much of a store's connection pool is in use: the database operations running now (a read, a write, a
/// transaction) against the connections the pool may open. `/metrics` reports both, so an operator sees a pool
/// that saturates before requests start to queue.
final class DatabaseUsage: Sendable {
    /// The connections the pool may hold open at once (PostgreSQL's pool size; SQLite's readers and its writer).
    let capacity: Int
    private let running = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Operations running now.
    var inFlight: Int { running.load(ordering: .relaxed) }

    /// Runs `operation`, counted as in flight while it runs.
    func measure<Value>(_ operation: () async throws -> Value) async rethrows -> Value {
        running.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        return try await operation()
    }
}
