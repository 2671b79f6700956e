import PostgresNIO

/// A statement of the hot paths, prepared once on each connection: PostgreSQL parses, analyses and plans an unnamed
/// statement at every call, which was about 1.3 ms of the 4 ms of database CPU a transfer cost (issue 47's profile).
///
/// Its text names its parameters `$1`… and casts each to its type (`bindingTypes`), so a NULL on the first call does
/// not decide a parameter's type for the connection's life; its columns are listed, never `*`, so that a migration
/// adding a column does not break the plan an older instance holds. `bindings` are in the parameters' order.
protocol PostgresStatement: PostgresPreparedStatement where Row == PostgresRow {
    static var bindingTypes: [PostgresDataType] { get }
    var bindings: PostgresBindings { get }
}

extension PostgresStatement {
    static var bindingDataTypes: [PostgresDataType] { bindingTypes }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresDatabase {
    /// The rows of `statement`, all read, as `rows(_:)` reads a query's.
    func rows<Statement: PostgresStatement>(_ statement: Statement) async throws -> [PostgresRow] {
        try await onOpenConnection { [logger] connection in
            try await Self.collect(connection.execute(statement, logger: logger))
        }
    }

    static func collect<Rows: AsyncSequence>(_ rows: Rows) async throws -> [PostgresRow] where Rows.Element == PostgresRow {
        var collected: [PostgresRow] = []
        for try await row in rows { collected.append(row) }
        return collected
    }
}

extension PostgresUnitOfWork {
    /// Runs `statement` in the transaction and reads its rows.
    func rows<Statement: PostgresStatement>(_ statement: Statement) async throws -> [PostgresRow] {
        try await PostgresDatabase.collect(connection.execute(statement, logger: logger))
    }
}
