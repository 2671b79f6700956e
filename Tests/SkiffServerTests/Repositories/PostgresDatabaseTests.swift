import Foundation
import PostgresNIO
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("PostgreSQL database")
struct PostgresDatabaseTests {
    @Test("A postgres:// or postgresql:// URL selects PostgreSQL; anything else is a SQLite path")
    func parsing() {
        #expect(DatabaseLocation(parsing: "postgres://skiff@db:5432/skiff") == .postgres(url: "postgres://skiff@db:5432/skiff"))
        #expect(DatabaseLocation(parsing: "PostgreSQL://skiff@db/skiff") == .postgres(url: "PostgreSQL://skiff@db/skiff"))
        #expect(DatabaseLocation(parsing: "/var/lib/skiff/skiff.sqlite") == .sqlite(path: "/var/lib/skiff/skiff.sqlite"))
        #expect(DatabaseLocation(parsing: "postgres.sqlite") == .sqlite(path: "postgres.sqlite"))
    }

    @Test("A location never shows its password")
    func description() {
        let location = DatabaseLocation.postgres(url: "postgres://skiff:s3cr3t-pw@db.internal:6432/wallet?sslmode=require")
        #expect(location.description == "postgres://skiff:***@db.internal:6432/wallet?sslmode=require")
        #expect(!"\(location)".contains("s3cr3t"))
        #expect(DatabaseLocation.postgres(url: "postgres://skiff@db/wallet").description == "postgres://skiff@db/wallet")
    }

    @Test("The URL gives host, port, user and database; the password comes from the URL, else PGPASSWORD")
    func url() throws {
        let fromURL = try PostgresURL("postgres://skiff:p%40ss@db:6432/wallet", environment: ["PGPASSWORD": "env"])
        #expect(fromURL.host == "db")
        #expect(fromURL.port == 6432)
        #expect(fromURL.username == "skiff")
        #expect(fromURL.password == "p@ss")
        #expect(fromURL.database == "wallet")
        let fromEnvironment = try PostgresURL("postgresql://skiff@db/wallet", environment: ["PGPASSWORD": "env"])
        #expect(fromEnvironment.port == 5432)
        #expect(fromEnvironment.password == "env")
        let socket = try PostgresURL("postgres://skiff@/wallet?host=/run/postgresql", environment: [:])
        #expect(socket.clientConfiguration.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(throws: PostgresURL.ParseError.self) { try PostgresURL("postgres://db/wallet", environment: [:]) }
        #expect(throws: PostgresURL.ParseError.self) { try PostgresURL("postgres://skiff@db/wallet?sslmode=allow", environment: [:]) }
    }

    @Test("Migrations are recorded once per version, even when two servers open the database at the same moment")
    func concurrentMigrations() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let stores = try await withThrowingTaskGroup(of: (any RepositoryStore).self) { group in
                for _ in 0..<4 {
                    group.addTask { try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for store in stores { await store.close() }
            let versions = try await TestPostgres.withAdmin(url) { client in
                var versions: [Int] = []
                for try await version in try await client.query("SELECT version FROM schema_migrations ORDER BY version")
                    .decode(Int.self) {
                    versions.append(version)
                }
                return versions
            }
            #expect(versions == PostgresMigrations.migrations.map(\.version))
        }
    }

    @Test("A database migrated by a newer server is refused with a message that says so")
    func newerSchemaRefused() async throws {
        try await TestPostgres.withFreshDatabase { url in
            try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger).close()
            let future = PostgresMigrations.latestVersion + 1
            try await TestPostgres.withAdmin(url) { client in
                _ = try await client.query("INSERT INTO schema_migrations (version) VALUES (\(future))")
            }
            let error = await #expect(throws: PostgresMigrations.NewerSchemaError.self) {
                try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger)
            }
            #expect(error?.description.contains("schema version \(future), newer than this skiff-server knows") == true)
        }
    }

    @Test("Two servers starting at once on an empty database seed the demo account once, and both start")
    func concurrentDemoSeeding() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-seed-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = SkiffServerConfiguration(
                database: .postgres(url: url), smsOutboxPath: directory.appendingPathComponent("outbox.jsonl").path,
                dataDirectory: directory.path, fingerprintKey: Data(repeating: 7, count: 32).base64EncodedString(),
                bcryptCost: 4, logger: TestStore.logger
            )
            let servers = try await withThrowingTaskGroup(of: SkiffServerComponents.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await SkiffServerComponents(configuration) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let phone = try PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)
            let demo = try #require(try await servers[0].repositories.accounts.user(phone: phone.e164))
            #expect(try await servers[1].repositories.transactions.page(userID: demo.id, after: nil, query: nil, limit: 500).count
                == DemoData.transactionCount)
            for server in servers { await server.store.close() }
        }
    }
}
