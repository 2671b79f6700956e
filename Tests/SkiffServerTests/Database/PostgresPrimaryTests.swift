import Foundation
import HTTPTypes
import PostgresNIO
import Synchronization
import Testing
@testable import SkiffServer

/// Following the database's primary (`PostgresPrimary`): a lost connection or a read-only server is answered as
/// `DatabaseUnavailable` (503), a server that still fits keeps its pool, a database that dies is noticed without a
/// request waiting on the pool's minute of connection attempts, and a database that comes back (or a standby promoted
/// in its place) gets a new pool. The database "dies" behind a relay the test cuts, so the shared test server lives.
@Suite("Following the PostgreSQL primary", .serialized)
struct PostgresPrimaryTests {
    @Test("A write on a read-only server, and a connection the server ended, answer DatabaseUnavailable; the host still fits, so its pool stays")
    func lostButStillFits() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let database = try await PostgresDatabase.open(url: url, logger: TestStore.logger)
            defer { Task { await database.close() } }
            await #expect(throws: DatabaseUnavailable.self) {
                try await database.transaction { connection in
                    try await connection.query("SET TRANSACTION READ ONLY", logger: TestStore.logger)
                    try await connection.query("CREATE TABLE written (id INT)", logger: TestStore.logger)
                }
            }
            await #expect(throws: DatabaseUnavailable.self) {
                _ = try await database.rows("SELECT pg_terminate_backend(pg_backend_pid())")
            }
            // The watcher asked the host (at once, woken by each loss) and it still takes writes: the same pool.
            try await Task.sleep(for: PostgresPrimary.checkInterval * 3)
            #expect(try await database.rows("SELECT 1").count == 1)
            #expect(try database.primary.pool().generation == 1)
        }
    }

    @Test("Any other error is itself: a unique violation is not a lost database")
    func otherErrors() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let database = try await PostgresDatabase.open(url: url, logger: TestStore.logger)
            defer { Task { await database.close() } }
            _ = try await database.rows("CREATE TABLE once (id INT PRIMARY KEY)")
            _ = try await database.rows("INSERT INTO once VALUES (1)")
            let error = await #expect(throws: (any Error).self) { _ = try await database.rows("INSERT INTO once VALUES (1)") }
            #expect(error?.isPostgresUniqueViolation == true)
            #expect(try database.primary.pool().generation == 1)
        }
    }

    @Test("The database dies: requests answer DatabaseUnavailable within seconds (not after the pool's minute); it comes back: a new pool serves")
    func diesAndComesBack() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let parts = try #require(PostgresURLParts(url))
            let relay = try await DatabaseRelay.start(to: try #require(parts.hosts.first))
            let database = try await PostgresDatabase.open(url: parts.url(forHost: "127.0.0.1:\(relay.port)"), logger: TestStore.logger)
            defer { Task { await database.close() } }
            _ = try await database.rows("CREATE TABLE kept (id INT PRIMARY KEY)")
            _ = try await database.rows("INSERT INTO kept VALUES (1)")
            relay.cut()
            #expect(try await Self.firstUnavailable(database, within: .seconds(20)))
            await #expect(throws: DatabaseUnavailable.self) { _ = try await database.rows("SELECT 1") }
            let back = try await DatabaseRelay.start(to: try #require(parts.hosts.first), port: relay.port)
            defer { back.cut() }
            let deadline = ContinuousClock.now + .seconds(20)
            var rows: [PostgresRow]?
            while rows == nil, ContinuousClock.now < deadline {
                rows = try? await database.rows("SELECT id FROM kept")
                if rows == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(try rows?.map { try $0.decode(Int.self) } == [1])
            #expect(try database.primary.pool().generation == 2)
        }
    }

    @Test("SIGTERM while the database is gone: skiff-server exits 0 within its drain time")
    func terminatedWhileGone() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-gone-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data((Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n").utf8)
                .write(to: folder.appendingPathComponent("server.key"))
            chmod(folder.appendingPathComponent("server.key").path, 0o600)
            let parts = try #require(PostgresURLParts(url))
            let relay = try await DatabaseRelay.start(to: try #require(parts.hosts.first))
            let server = try await ServerProcess.start(
                folder: folder, database: parts.url(forHost: "127.0.0.1:\(relay.port)"), name: "gone"
            )
            #expect(try await server.client.send(.get, "/health/ready").status == .ok)
            relay.cut()
            // Requests meet the dead database, as a wallet's would, then the server is told to stop.
            let deadline = ContinuousClock.now + .seconds(20)
            var status = HTTPResponse.Status.ok
            while status != .serviceUnavailable, ContinuousClock.now < deadline {
                status = try await server.client.send(.get, "/health/ready").status
            }
            #expect(status == .serviceUnavailable)
            #expect(try await server.terminate() == 0)
        }
    }

    @Test("On the HA formation: through a switchover every acknowledged write is on the new primary and the pool follows it")
    func switchover() async throws {
        try await TestPostgres.withFreshDatabase(on: TestPostgres.formationURL, named: "SKIFF_TEST_POSTGRES_HA_URL") { url in
            let database = try await PostgresDatabase.open(url: url, logger: TestStore.logger)
            defer { Task { await database.close() } }
            let first = try database.primary.pool().endpoint
            _ = try await database.rows("CREATE TABLE acknowledged (id INT PRIMARY KEY)")
            let written = Mutex<(acknowledged: [Int], unavailable: Int)>(([], 0))
            let writing = Task {
                var next = 1
                while !Task.isCancelled {
                    do {
                        // Sent again after DatabaseUnavailable: a commit whose answer was lost is done only once.
                        _ = try await database.write("INSERT INTO acknowledged VALUES (\(next)) ON CONFLICT DO NOTHING")
                        written.withLock { $0.acknowledged.append(next) }
                        next += 1
                    } catch is DatabaseUnavailable {
                        written.withLock { $0.unavailable += 1 }
                        try? await Task.sleep(for: .milliseconds(50))
                    } catch {
                        // The test's end cancels the write in flight (not acknowledged, so not counted).
                        if Task.isCancelled { return }
                        Issue.record("a write failed otherwise than DatabaseUnavailable: \(String(reflecting: error))")
                        return
                    }
                }
            }
            try await Task.sleep(for: .seconds(1))
            try await PostgresFormation.run("failover")
            let after = written.withLock { $0.acknowledged.count }
            let deadline = ContinuousClock.now + .seconds(30)
            while written.withLock({ $0.acknowledged.count }) < after + 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            writing.cancel()
            _ = await writing.value
            let (acknowledged, unavailable) = written.withLock { ($0.acknowledged, $0.unavailable) }
            #expect(acknowledged.count >= after + 20, "writes did not go on after the switchover (\(unavailable) unavailable)")
            let stored = try await database.rows("SELECT id FROM acknowledged ORDER BY id").map { try $0.decode(Int.self) }
            let missing = Set(acknowledged).subtracting(stored).sorted()
            // A loss says what the monitor did meanwhile: a second, unplanned promotion while the new primary ran
            // without its synchronous standby (wait_primary) can take commits acknowledged then (decision 0199).
            let events = missing.isEmpty ? "" : (try? await PostgresFormation.run("events")) ?? "(the monitor's events could not be read)"
            #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged writes missing on the new primary: \(missing.prefix(10))…\(missing.suffix(10)) (\(unavailable) answered unavailable, \(stored.count) stored); the monitor's events:\n\(events)")
            let now = try database.primary.pool()
            #expect("\(now.endpoint.host):\(now.endpoint.port)" != "\(first.host):\(first.port)")
            #expect(now.generation >= 2)
        }
    }

    /// Whether a request answers `DatabaseUnavailable` before `limit` runs out (the pool alone would keep it waiting
    /// for a minute, then fail it otherwise).
    static func firstUnavailable(_ database: SkiffServer.PostgresDatabase, within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            do {
                _ = try await database.rows("SELECT 1")
            } catch is DatabaseUnavailable {
                return true
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// A TCP relay from a loopback port to a PostgreSQL server that a test can cut (its process SIGKILLed: every
/// connection through it reset, the port refused), as if the database's machine died, and start again on the same port.
struct DatabaseRelay: Sendable {
    let process: Process
    let port: Int

    private static let program = """
        import asyncio, sys
        host, port = sys.argv[1].rsplit(":", 1)
        async def pipe(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except Exception:
                pass
            finally:
                writer.close()
        async def relay(client_reader, client_writer):
            try:
                server_reader, server_writer = await asyncio.open_connection(host, int(port))
            except Exception:
                client_writer.close()
                return
            await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        async def main():
            server = await asyncio.start_server(relay, "127.0.0.1", int(sys.argv[2]), reuse_address=True)
            print(server.sockets[0].getsockname()[1], flush=True)
            await server.serve_forever()
        asyncio.run(main())
        """

    /// Starts a relay to `target` (`HOST:PORT`) on `port` (0: a free one).
    static func start(to target: String, port: Int = 0) async throws -> DatabaseRelay {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, target, "\(port)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line = await Task.detached { output.fileHandleForReading.availableData }.value
        guard let listening = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the relay to \(target) did not start")
        }
        return DatabaseRelay(process: process, port: listening)
    }

    /// SIGKILL: every connection through the relay is reset and its port refuses new ones.
    func cut() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// `scripts/postgres-ha.sh`, for the tests that act on the formation.
enum PostgresFormation {
    /// Runs `scripts/postgres-ha.sh COMMAND` and waits for it; returns what it printed, and a failure says it.
    @discardableResult
    static func run(_ command: String) async throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/postgres-ha.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, command]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = await Task.detached { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }.value
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("postgres-ha.sh \(command) failed: \(text)") }
        return text
    }
}
