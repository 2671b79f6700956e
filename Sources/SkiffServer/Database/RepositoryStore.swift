import Foundation
import Logging

/// An open database the repositories run on.
protocol RepositoryStore: Sendable {
    var repositories: Repositories { get }
    /// The connection pool's use, for `/metrics`.
    var usage: DatabaseUsage { get }
    /// True when no user exists yet.
    func isEmpty() async throws -> Bool
    /// The migrations this binary knows that the database has not had, oldest first; empty when it is current.
    /// Asks the database, so it also says whether the database answers (it throws when it does not).
    func pendingMigrations() async throws -> [String]
    /// Deletes the rows `cutoffs` says no rule reads any more (`PurgeRule.all`), at most `batchSize` rows of a
    /// table per statement, each statement its own transaction, until none is left.
    func purge(_ cutoffs: PurgeCutoffs, batchSize: Int) async throws -> PurgeCounts
    /// Rings `hub` for the users whose events were committed (by this process on SQLite, by any instance on
    /// PostgreSQL) and forgets their sessions in `sessions`, which is live while every commit is seen, until the task
    /// is cancelled.
    func deliverEvents(to hub: EventHub, sessions: SessionCache) async
    /// Releases the connections; the repositories must not be used afterwards.
    func close() async
}

/// What opening a database does about migrations it has not had.
public enum MigrationPolicy: Sendable {
    /// Applies them (one instance at a time on PostgreSQL): `serve`, `migrate` and the tools.
    case apply
    /// Applies none, and refuses a database that lacks any (`serve --no-migrate`, where instances must not race to
    /// migrate and an operator runs `skiff-server migrate` first).
    case requireCurrent
}

/// A database that lacks migrations, opened with `MigrationPolicy.requireCurrent`.
public struct PendingMigrationsError: Error, CustomStringConvertible {
    public var pending: [String]

    public var description: String {
        "The database lacks \(pending.count) migration\(pending.count == 1 ? "" : "s") (\(pending.joined(separator: ", "))), "
            + "and --no-migrate forbids applying them here. Run `skiff-server migrate` with the same --database, "
            + "then start again."
    }
}

/// Opens the database at `location`, migrating it as `migrations` says: the one way the server, the seeder and the
/// tests reach a store.
func openRepositoryStore(
    _ location: DatabaseLocation, logger: Logger, migrations: MigrationPolicy = .apply
) async throws -> any RepositoryStore {
    let store: any RepositoryStore
    switch location {
    case .sqlite(let path):
        store = try SQLiteDatabase(path: path, migrating: migrations == .apply)
    case .postgres(let url):
        logger.info("opening PostgreSQL", metadata: ["database": "\(location)"])
        store = try await PostgresDatabase.open(url: url, logger: logger, migrating: migrations == .apply)
    }
    if migrations == .requireCurrent {
        let pending: [String]
        do {
            pending = try await store.pendingMigrations()
        } catch {
            await store.close()
            throw error
        }
        if !pending.isEmpty {
            await store.close()
            throw PendingMigrationsError(pending: pending)
        }
    }
    return store
}
