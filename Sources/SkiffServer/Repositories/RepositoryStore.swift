import Foundation
import Logging

/// An open database the repositories run on.
protocol RepositoryStore: Sendable {
    var repositories: Repositories { get }
    /// True when no user exists yet.
    func isEmpty() async throws -> Bool
    /// Deletes the rows `cutoffs` says no rule reads any more (`PurgeRule.all`), at most `batchSize` rows of a
    /// table per statement, each statement its own transaction, until none is left.
    func purge(_ cutoffs: PurgeCutoffs, batchSize: Int) async throws -> PurgeCounts
    /// Releases the connections; the repositories must not be used afterwards.
    func close() async
}

/// Opens (and migrates) the database at `location`: the one way the server, the seeder and the tests reach a store.
func openRepositoryStore(_ location: DatabaseLocation, logger: Logger) async throws -> any RepositoryStore {
    switch location {
    case .sqlite(let path):
        return try SQLiteDatabase(path: path)
    case .postgres(let url):
        logger.info("opening PostgreSQL", metadata: ["database": "\(location)"])
        return try await PostgresDatabase.open(url: url, logger: logger)
    }
}
