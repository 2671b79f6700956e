import Foundation
import GRDB
import HTTPTypes
import SkiffCore
import Testing
@testable import SkiffServer

@Suite("Seeding")
struct SeedingTests {
    @Test("An empty database gets the demo account; a second start adds nothing")
    func demoOnEmptyDatabase() async throws {
        let server = try TestServer(seedDemo: true)
        defer { server.remove() }
        _ = try await SkiffServerComponents(server.configuration)
        _ = try await SkiffServerComponents(server.configuration)
        let pool = try DatabasePool(path: server.databasePath)
        let counts = try await pool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notifications WHERE read_at IS NULL") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT merchant) FROM transactions") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT category) FROM transactions") ?? 0,
                try String.fetchAll(db, sql: "SELECT kind || ':' || status FROM cards")
            )
        }
        #expect(counts.0 == 1)
        #expect(counts.1 == 240)
        #expect(counts.2 == 3)
        #expect(counts.3 > 20)
        #expect(counts.4 > 10)
        #expect(counts.5 == ["issued:inactive"])
        let months = try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(DISTINCT strftime('%Y-%m', created_at / 1000, 'unixepoch')) FROM transactions"
            ) ?? 0
        }
        #expect(months >= 6)
        #expect(try await SkiffServerSeeder.seedDemo(server.configuration) == false)
    }

    @Test("seed creates a user with N transactions, and adds to an existing one")
    func seedUser() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let first = try await SkiffServerSeeder.seed(
            server.configuration, countryCode: "+1", phoneNumber: "202 555 0111", fullName: "Load Test",
            password: "load-test-password", transactions: 5_000
        )
        #expect(first.createdUser)
        let second = try await SkiffServerSeeder.seed(
            server.configuration, countryCode: "+1", phoneNumber: "2025550111", fullName: "Load Test",
            password: "load-test-password", transactions: 1_000
        )
        #expect(!second.createdUser)
        #expect(second.userID == first.userID)
        let pool = try DatabasePool(path: server.databasePath)
        let count = try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE user_id = ?", arguments: [first.userID]) ?? 0
        }
        #expect(count == 6_001)
        try await server.withRouter { client in
            let login = try await client.send(
                .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": "2025550111", "password": "load-test-password"]
            )
            #expect(login.status == .ok)
        }
    }

    @Test("seed without a password gives a new user a generated one, returned once; never the demo password")
    func seedGeneratesPassword() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let first = try await SkiffServerSeeder.seed(
            server.configuration, countryCode: "+1", phoneNumber: "202 555 0112", fullName: "Load Test",
            password: nil, transactions: 1
        )
        let generated = try #require(first.generatedPassword)
        #expect(generated.count >= 20 && generated != DemoCredentials.demo.password)
        let again = try await SkiffServerSeeder.seed(
            server.configuration, countryCode: "+1", phoneNumber: "202 555 0112", fullName: "Load Test",
            password: nil, transactions: 1
        )
        #expect(!again.createdUser && again.generatedPassword == nil)
        let given = try await SkiffServerSeeder.seed(
            server.configuration, countryCode: "+1", phoneNumber: "202 555 0113", fullName: "Load Test",
            password: "load-test-password", transactions: 1
        )
        #expect(given.createdUser && given.generatedPassword == nil)
        try await server.withRouter { client in
            for (number, password, status) in [
                ("2025550112", generated, HTTPResponse.Status.ok), ("2025550112", DemoCredentials.demo.password, .unauthorized),
            ] {
                let login = try await client.send(
                    .post, "/v1/auth/login", json: ["countryCode": "+1", "phoneNumber": number, "password": password]
                )
                #expect(login.status == status)
            }
        }
    }

    @Test("The database runs in WAL mode")
    func walMode() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let database = try SQLiteDatabase(path: server.databasePath)
        let mode = try await database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
