import Foundation
import Logging
import PostgresNIO
import SkiffCore

/// A PostgreSQL database reached through PostgresNIO's `PostgresClient` (its own connection pool), migrated on open.
///
/// The client runs in a task from `open` until `close`; the server closes it once it has stopped serving.
final class PostgresDatabase: RepositoryStore {
    let client: PostgresClient
    let logger: Logger
    /// The pool's connections in use, counted around `rows` and `transaction` (every repository's way in).
    let usage: DatabaseUsage
    private let running: Task<Void, Never>

    private init(client: PostgresClient, capacity: Int, logger: Logger) {
        self.client = client
        self.logger = logger
        usage = DatabaseUsage(capacity: capacity)
        running = Task.immediate { await client.run() }
    }

    /// Connects to the database at `url` and brings its schema up to the newest migration (`PostgresMigrations`). One
    /// connection is made first on its own to each host of the URL in turn until one fits its `target_session_attrs`
    /// (`PostgresHosts.choose`), so that TLS the server does not offer, a certificate that does not verify or a
    /// refused password stops the start at once with its reason (the pool would retry for a minute and then report
    /// only that it gave up).
    static func open(
        url: String, logger: Logger, migrating: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> PostgresDatabase {
        let location = try await PostgresHosts(url, environment: environment).choose(logger: logger)
        let configuration = location.clientConfiguration
        let database = PostgresDatabase(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            capacity: configuration.options.maximumConnections, logger: logger
        )
        do {
            if migrating { try await PostgresMigrations.migrate(database.client, logger: logger) }
        } catch {
            await database.close()
            throw error
        }
        return database
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
        let rows = try await client.query("SELECT EXISTS (SELECT 1 FROM users)", logger: logger)
        for try await hasUsers in rows.decode(Bool.self) { return !hasUsers }
        return true
    }

    func pendingMigrations() async throws -> [String] {
        try await PostgresMigrations.pending(client, logger: logger).map(\.name)
    }

    /// Ends the client's run task, which closes every pooled connection.
    func close() async {
        running.cancel()
        await running.value
    }

    /// The rows of `query`, all read.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await usage.measure { try await client.query(query, logger: logger).collect() }
    }

    /// Runs `body` in one transaction on one pooled connection; a thrown error rolls it back and is rethrown as is.
    func transaction<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        do {
            return try await usage.measure {
                try await client.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }
}

extension Error {
    /// True for PostgreSQL's unique_violation (SQLSTATE 23505).
    var isPostgresUniqueViolation: Bool {
        (self as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
