import Foundation
import Logging
import PostgresNIO
import SkiffCore

/// A PostgreSQL database reached through PostgresNIO's `PostgresClient` (its own connection pool), migrated on open,
/// on the server of its URL that fits `target_session_attrs`, followed through a failover (`PostgresPrimary`).
///
/// The pool runs from `open` until `close`; the server closes it once it has stopped serving.
final class PostgresDatabase: RepositoryStore {
    let primary: PostgresPrimary
    let logger: Logger
    /// The pool's connections in use, counted around `rows` and `transaction` (every repository's way in).
    let usage: DatabaseUsage

    private init(primary: PostgresPrimary, logger: Logger) {
        self.primary = primary
        self.logger = logger
        usage = DatabaseUsage(capacity: primary.capacity)
    }

    /// Connects to the database at `url` and brings its schema up to the newest migration (`PostgresMigrations`). One
    /// connection is made first on its own to each host of the URL in turn until one fits its `target_session_attrs`
    /// (`PostgresHosts.choose`), so that TLS the server does not offer, a certificate that does not verify or a
    /// refused password stops the start at once with its reason (the pool would retry for a minute and then report
    /// only that it gave up).
    static func open(
        url: String, logger: Logger, migrating: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> PostgresDatabase {
        let hosts = try PostgresHosts(url, environment: environment)
        for warning in hosts.transportWarnings { logger.warning("\(warning)") }
        let database = PostgresDatabase(primary: try await PostgresPrimary.open(hosts, logger: logger), logger: logger)
        do {
            if migrating { try await PostgresMigrations.migrate(database.client, logger: logger) }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// The pool in use now (`PostgresPrimary.pool`).
    var client: PostgresClient {
        get throws(DatabaseUnavailable) { try primary.pool().client }
    }

    var repositories: Repositories {
        Repositories(
            accounts: PostgresAccountRepository(database: self),
            sessions: PostgresSessionRepository(database: self),
            verifications: PostgresVerificationRepository(database: self),
            loginThrottle: PostgresLoginThrottleRepository(database: self),
            cards: PostgresCardRepository(database: self),
            transactions: PostgresTransactionRepository(database: self),
            notifications: PostgresNotificationRepository(database: self),
            idempotency: PostgresIdempotencyRepository(database: self),
            ledger: PostgresLedgerRepository(database: self),
            topUps: PostgresTopUpRepository(database: self),
            rateWindows: PostgresRateWindowRepository(database: self),
            events: PostgresEventRepository(database: self)
        )
    }

    func isEmpty() async throws -> Bool {
        try await !(rows("SELECT EXISTS (SELECT 1 FROM users)").first?.decode(Bool.self) ?? false)
    }

    func pendingMigrations() async throws -> [String] {
        try await PostgresMigrations.pending(client, logger: logger).map(\.name)
    }

    /// Stops following the primary and closes every pooled connection.
    func close() async {
        await primary.close()
    }

    /// The rows of `query`, all read. `DatabaseUnavailable` while no server fits, or when the connection is lost.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await onOpenConnection { [logger] connection in try await connection.query(query, logger: logger).collect() }
    }

    /// Runs `body` on a pooled connection that is open as it is leased. A question on a connection that has just closed
    /// is never answered by PostgresNIO (its write fails with no one told; a test of a dead database hung on it for
    /// minutes): such a connection answers `DatabaseUnavailable` at once instead, as a lost one does.
    func onOpenConnection<Value: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let pool = try primary.pool()
        do {
            return try await usage.measure {
                try await pool.client.withConnection { connection in
                    guard !connection.isClosed else { throw DatabaseUnavailable() }
                    return try await body(connection)
                }
            }
        } catch {
            throw primary.settle(error, from: pool)
        }
    }

    /// The rows of `query`, a statement that writes outside a transaction, once the server has committed it.
    ///
    /// A lone statement commits at the `Sync` after it, and PostgresNIO answers at its `CommandComplete`, before that
    /// commit (and its wait for the synchronous standby): a connection lost in between would leave a write answered
    /// that a crash or a failover then loses (seen through a switchover). A second question on the same connection is
    /// answered only after the commit, so the write is answered only once it is durable; otherwise the request answers
    /// `DatabaseUnavailable` and its retry settles it. Writes inside `transaction` need none: their `COMMIT` is
    /// answered after the commit.
    func write(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await onOpenConnection { [logger] connection in
            let rows = try await connection.query(query, logger: logger).collect()
            // The connection may have closed under the statement: ask only an open one (`onOpenConnection`), and give
            // up after the watcher's bound.
            guard !connection.isClosed else { throw DatabaseUnavailable() }
            _ = try await FirstOutcome.within(PostgresPrimary.checkTimeout) {
                try await connection.query("SELECT 1", logger: logger).collect().count
            }
            return rows
        }
    }

    /// Runs `body` in one transaction on one pooled connection; a thrown error rolls it back and is rethrown as is,
    /// but for a lost connection or a server gone read-only (`DatabaseUnavailable`: a commit's outcome may be
    /// unknown, which the request's Idempotency-Key settles when it is sent again).
    func transaction<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        let pool = try primary.pool()
        do {
            return try await usage.measure {
                try await pool.client.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            throw primary.settle(error.closureError ?? error.beginError ?? error.commitError ?? error, from: pool)
        } catch {
            throw primary.settle(error, from: pool)
        }
    }
}

extension Error {
    /// True for PostgreSQL's unique_violation (SQLSTATE 23505).
    var isPostgresUniqueViolation: Bool {
        (self as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
