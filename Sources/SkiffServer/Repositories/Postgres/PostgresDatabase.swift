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
    private let running: Task<Void, Never>

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        running = Task.immediate { await client.run() }
    }

    /// Connects to the database at `url` and brings its schema up to `PostgresMigrations.latestVersion`.
    static func open(url: String, logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> PostgresDatabase {
        let configuration = try PostgresURL(url, environment: environment).clientConfiguration
        let database = PostgresDatabase(client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger)
        do {
            try await PostgresMigrations.migrate(database.client, logger: logger)
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
            idempotency: PostgresIdempotencyRepository(database: self)
        )
    }

    func isEmpty() async throws -> Bool {
        let rows = try await client.query("SELECT EXISTS (SELECT 1 FROM users)", logger: logger)
        for try await hasUsers in rows.decode(Bool.self) { return !hasUsers }
        return true
    }

    /// Ends the client's run task, which closes every pooled connection.
    func close() async {
        running.cancel()
        await running.value
    }

    /// The rows of `query`, all read.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query, logger: logger).collect()
    }

    /// Runs `body` in one transaction on one pooled connection; a thrown error rolls it back and is rethrown as is.
    func transaction<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }
}

/// The parts of a `postgres://` URL the client needs; the password comes from the URL or `PGPASSWORD`.
/// `Redacted`, because it holds that password.
struct PostgresURL: Redacted {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    /// `disable`, `prefer` (the default, as libpq's) or `require`; `verify-full` also checks the certificate.
    var sslMode: String
    /// A directory holding the server's Unix socket, from `?host=/path`.
    var socketDirectory: String?

    enum ParseError: Error, CustomStringConvertible {
        case unreadable(DatabaseLocation)
        case unsupportedSSLMode(String)

        var description: String {
            switch self {
            case .unreadable(let location): "The database URL \(location) cannot be read: expected postgres://USER@HOST:PORT/DATABASE."
            case .unsupportedSSLMode(let mode): "sslmode=\(mode) is not supported: use disable, prefer, require or verify-full."
            }
        }
    }

    init(_ url: String, environment: [String: String]) throws {
        guard let components = URLComponents(string: url), let username = components.user, !username.isEmpty else {
            throw ParseError.unreadable(.postgres(url: url))
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard let host = components.host.flatMap({ $0.isEmpty ? nil : $0 }) ?? socketDirectory.map({ _ in "localhost" }) else {
            throw ParseError.unreadable(.postgres(url: url))
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username
        password = components.password ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        sslMode = query["sslmode"] ?? "prefer"
        guard ["disable", "prefer", "require", "verify-full"].contains(sslMode) else {
            throw ParseError.unsupportedSSLMode(sslMode)
        }
    }

    var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database
            )
        }
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        let tls: PostgresClient.Configuration.TLS = switch sslMode {
        case "disable": .disable
        case "require": .require(unverified)
        case "verify-full": .require(.makeClientConfiguration())
        default: .prefer(unverified)
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls
        )
    }
}

extension Error {
    /// True for PostgreSQL's unique_violation (SQLSTATE 23505).
    var isPostgresUniqueViolation: Bool {
        (self as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
