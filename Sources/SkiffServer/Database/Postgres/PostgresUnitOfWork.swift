import Logging
import PostgresNIO

/// One PostgreSQL transaction that several areas write into together (a transfer and its payee's notification, a new
/// account's user, wallet, card and welcome). Each area adds its writes to it in an extension in its own file, so no
/// repository calls another's.
struct PostgresUnitOfWork: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs `query` in the transaction.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.query(query, logger: logger)
    }
}

extension PostgresDatabase {
    /// Runs `body` in one transaction on one pooled connection (`transaction(_:)`), as a unit of work.
    func unitOfWork<Value: Sendable>(_ body: (PostgresUnitOfWork) async throws -> Value) async throws -> Value {
        let logger = logger
        return try await transaction { connection in
            try await body(PostgresUnitOfWork(connection: connection, logger: logger))
        }
    }
}
