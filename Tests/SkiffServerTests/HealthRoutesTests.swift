import Foundation
import GRDB
import HummingbirdTesting
import Testing
@testable import SkiffServer

@Suite("Health routes")
struct HealthRoutesTests {
    @Test("Live answers while the process serves; ready while the database answers and has every migration")
    func liveAndReady() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.withRouter { client in
            #expect(try await client.send(.get, "/health/live").status == .ok)
            let ready = try await client.send(.get, "/health/ready")
            #expect(ready.status == .ok)
            #expect(ready.body == "ready\n")

            // The schema mark of the newest migration gone, as if an older binary's schema were under this one.
            let newest = SchemaMigration.newest.name
            let queue = try DatabaseQueue(path: server.databasePath)
            try await queue.write { try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [newest]) }
            let behind = try await client.send(.get, "/health/ready")
            #expect(behind.status == .serviceUnavailable)
            #expect(behind.body.contains("lacks 1 migration(s); run skiff-server migrate"))
            #expect(try await client.send(.get, "/health/live").status == .ok)
        }
    }
}
