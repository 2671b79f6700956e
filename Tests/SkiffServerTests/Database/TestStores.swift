import Foundation
import Logging
import PostgresNIO
import Testing
@testable import SkiffServer

/// The stores the repository suite runs against.
enum TestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Stores under test log nowhere.
    static let logger = Logger(label: "skiff-store-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` on a fresh, empty, migrated store and removes it afterwards. Without `SKIFF_TEST_POSTGRES_URL`
    /// the PostgreSQL case fails when `CI=true`, and otherwise is recorded as a known issue saying it did not run.
    func withFresh(_ body: (any RepositoryStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-store-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try await openRepositoryStore(
                .sqlite(path: directory.appendingPathComponent("skiff.sqlite").path), logger: TestStore.logger
            )
            try await body(store)
        case .postgres:
            try await TestPostgres.withFreshDatabase { databaseURL in
                let store = try await openRepositoryStore(.postgres(url: databaseURL), logger: TestStore.logger)
                do {
                    try await body(store)
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        }
    }
}

/// The PostgreSQL the tests use, from `SKIFF_TEST_POSTGRES_URL`; every test gets a database of its own.
enum TestPostgres {
    static var url: String? {
        ProcessInfo.processInfo.environment["SKIFF_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Creates `skiff_test_<random>` on the server of `SKIFF_TEST_POSTGRES_URL`, passes its URL to `body`, then
    /// drops it. Without the variable this fails when `CI=true`, and otherwise records a known issue saying the
    /// PostgreSQL case did not run.
    static func withFreshDatabase(_ body: (String) async throws -> Void) async throws {
        try await withFreshDatabase(on: url, named: "SKIFF_TEST_POSTGRES_URL", body)
    }

    /// The high-availability formation's URL (`scripts/postgres-ha.sh url`), from `SKIFF_TEST_POSTGRES_HA_URL`.
    static var formationURL: String? {
        ProcessInfo.processInfo.environment["SKIFF_TEST_POSTGRES_HA_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `withFreshDatabase` on the server (or formation: a multi-host URL) of `baseURL`, the value of the variable
    /// `variable`; without it, a failure when `CI=true` and a known issue otherwise.
    static func withFreshDatabase(on baseURL: String?, named variable: String, _ body: (String) async throws -> Void) async throws {
        guard let baseURL else {
            if isCI {
                throw TestFailure("CI=true but \(variable) is not set: the PostgreSQL cases need a database")
            }
            withKnownIssue {
                throw TestFailure("Not run: \(variable) is not set (.ci/run starts a PostgreSQL and sets it)")
            }
            return
        }
        guard var parts = PostgresURLParts(baseURL) else { throw TestFailure("\(variable) is not a URL") }
        let name = "skiff_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        do {
            try await withAdmin(baseURL) { _ = try await $0.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
        } catch let error as PSQLError {
            throw TestFailure("PostgreSQL, creating \(name): \(String(reflecting: error))")
        }
        parts.rest = Substring("/" + name + (parts.rest.firstIndex(of: "?").map { parts.rest[$0...] } ?? ""))
        let databaseURL = parts.url(forHost: parts.hosts.joined(separator: ","))
        do {
            try await body(databaseURL)
        } catch let error as PSQLError {
            await dropDatabase(name, baseURL)
            // PSQLError's description hides everything; the test database holds no secrets, so say what happened.
            throw TestFailure("PostgreSQL: \(String(reflecting: error))")
        } catch {
            await dropDatabase(name, baseURL)
            throw error
        }
        await dropDatabase(name, baseURL)
    }

    /// Drops a test database, trying again for a few seconds: `WITH (FORCE)` cannot end an autovacuum worker that
    /// has just started on it ("must be a member of the role whose process is being terminated"), and the worker is
    /// done soon after. Cleanup only: a database left behind fails no test (CI's cluster is thrown away).
    private static func dropDatabase(_ name: String, _ baseURL: String) async {
        for attempt in 1...20 {
            do {
                try await withAdmin(baseURL) { _ = try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")) }
                return
            } catch {
                if attempt < 20 { try? await Task.sleep(for: .milliseconds(250)) }
            }
        }
    }

    /// Runs `body` with a client on `url` that is not migrated (on the host of a multi-host URL that fits it).
    static func withAdmin<Value: Sendable>(
        _ url: String, _ body: @Sendable (PostgresClient) async throws -> Value
    ) async throws -> Value {
        let configuration = try await PostgresHosts(url, environment: ProcessInfo.processInfo.environment)
            .choose(logger: TestStore.logger).clientConfiguration
        let client = PostgresClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}

extension RepositoryStore {
    /// This binary's repositories write and read the columns later migrations add (`card-network`'s
    /// `cards.network_card_id`, `step-up-binding`'s payee and amount). A test that fills a database migrated to an
    /// older step through them runs `body` with those columns there, then takes them out again, so the database is as
    /// that step left it when the rest of the migrations run.
    func withLaterColumns(_ body: () async throws -> Void) async throws {
        let columns = [("cards", "network_card_id", "TEXT"), ("step_ups", "payee_user_id", "TEXT"), ("step_ups", "amount_minor", "BIGINT")]
        for (table, column, type) in columns { try await execute("ALTER TABLE \(table) ADD COLUMN \(column) \(type)") }
        try await body()
        for (table, column, _) in columns { try await execute("ALTER TABLE \(table) DROP COLUMN \(column)") }
    }
}

extension TransactionRepository {
    /// `spending(userID:in:)` for one period, as the repository tests ask for it.
    func spending(userID: String, from start: Date, to end: Date) async throws -> [CategorySpendingRecord] {
        try await spending(userID: userID, in: [start..<max(start, end)]).first ?? []
    }
}

extension SQLiteDatabase {
    /// A new, migrated SQLite database in a folder of its own, passed to `body`, then removed.
    static func withTemporary(_ body: (SQLiteDatabase) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(SQLiteDatabase(path: directory.appendingPathComponent("skiff.sqlite").path))
    }
}
