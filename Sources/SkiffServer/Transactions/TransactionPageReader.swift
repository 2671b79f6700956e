import Foundation
import Logging

/// One person's transactions read page by page straight from a store, with no HTTP around it: what the in-process
/// benchmarks (`Benchmarks/ServerStoreBenchmarks`) time. It goes through the same repository the routes use.
package struct TransactionPageReader: Sendable {
    private let store: any RepositoryStore
    private let userID: String

    /// Opens (and migrates) the store at `location`; nil when no user has the E.164 number `phone`.
    package static func open(_ location: DatabaseLocation, phone: String, logger: Logger) async throws -> TransactionPageReader? {
        let store = try await openRepositoryStore(location, logger: logger)
        guard let user = try await store.repositories.accounts.user(phone: phone) else {
            await store.close()
            return nil
        }
        return TransactionPageReader(store: store, userID: user.id)
    }

    private init(store: any RepositoryStore, userID: String) {
        self.store = store
        self.userID = userID
    }

    /// The first `limit` transactions matching `query` (all without one), newest first; returns how many came.
    package func firstPage(query: String?, limit: Int) async throws -> Int {
        try await store.repositories.transactions.page(userID: userID, after: nil, query: query, limit: limit).count
    }

    package func close() async {
        await store.close()
    }
}
