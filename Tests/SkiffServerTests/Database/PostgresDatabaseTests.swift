import Foundation
import NIOSSL
import PostgresNIO
import SkiffTestCertificates
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

    @Test("sslmode disable, require, verify-ca and verify-full each give the TLS they name; sslrootcert is trusted in place of the system's")
    func sslModes() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let base = "postgres://skiff@db.internal/wallet"
        #expect(try PostgresURL(base + "?sslmode=disable", environment: [:]).tlsConfiguration == nil)
        let require = try #require(try PostgresURL(base + "?sslmode=require", environment: [:]).tlsConfiguration)
        #expect(require.certificateVerification == .none)
        #expect(require.minimumTLSVersion == .tlsv12)
        let verifyCA = try #require(try PostgresURL(base + "?sslmode=verify-ca", environment: [:]).tlsConfiguration)
        #expect(verifyCA.certificateVerification == .noHostnameVerification)
        let verifyFull = try #require(try PostgresURL(base + "?sslmode=verify-full", environment: [:]).tlsConfiguration)
        #expect(verifyFull.certificateVerification == .fullVerification)
        #expect(verifyFull.trustRoots == nil || verifyFull.trustRoots == .default)

        let root = authority.authorityCertificateFile.path
        let pinned = try PostgresURL(base + "?sslmode=verify-full&sslrootcert=\(root)", environment: [:])
        #expect(pinned.tlsConfiguration?.trustRoots == .certificates(try NIOSSLCertificate.fromPEMFile(root)))
        // As libpq: require with a root certificate checks the chain.
        let requireWithRoot = try PostgresURL(base + "?sslmode=require&sslrootcert=\(root)", environment: [:])
        #expect(requireWithRoot.tlsConfiguration?.certificateVerification == .noHostnameVerification)

        let missing = authority.directory.appendingPathComponent("missing.pem").path
        let unreadable = #expect(throws: PostgresURL.ParseError.self) {
            try PostgresURL(base + "?sslmode=verify-full&sslrootcert=\(missing)", environment: [:])
        }
        #expect(unreadable?.description == "sslrootcert=\(missing) cannot be read or holds no PEM certificate.")
    }

    @Test("An unknown sslmode, and allow or prefer (which fall back to plaintext silently), are refused naming the modes there are",
          arguments: ["allow", "prefer", "verify_full", ""])
    func unknownSSLMode(mode: String) {
        let error = #expect(throws: PostgresURL.ParseError.self) {
            try PostgresURL("postgres://skiff@db.internal/wallet?sslmode=\(mode)", environment: [:])
        }
        #expect(error?.description == "sslmode=\(mode) is not supported: use disable, require, verify-ca, verify-full "
            + "(allow and prefer fall back to plaintext without a word).")
    }

    @Test("Without sslmode, a host off this machine gets verify-full; loopback and a Unix socket get disable")
    func sslModeByHost() throws {
        for host in ["db.internal", "10.0.0.5", "[2001:db8::5]", "127.1"] {
            #expect(try PostgresURL("postgres://skiff@\(host)/wallet", environment: [:]).sslMode == .verifyFull, "\(host)")
        }
        for host in ["127.0.0.1", "localhost", "[::1]"] {
            #expect(try PostgresURL("postgres://skiff@\(host)/wallet", environment: [:]).sslMode == .disable, "\(host)")
        }
        #expect(try PostgresURL("postgres://skiff@/wallet?host=/run/postgresql", environment: [:]).sslMode == .disable)
    }

    @Test("A multi-host URL is read as libpq reads it: each host with its port, its own sslmode default and password-file entry; target_session_attrs named")
    func multiHost() throws {
        let hosts = try PostgresHosts(
            "postgres://skiff@127.0.0.1:5433,db2.internal:6432,[::1]/wallet?target_session_attrs=read-write",
            environment: ["PGPASSWORD": "env"]
        )
        #expect(hosts.endpoints.map(\.host) == ["127.0.0.1", "db2.internal", "[::1]"])
        #expect(hosts.endpoints.map(\.port) == [5433, 6432, 5432])
        #expect(hosts.endpoints.map(\.sslMode) == [.disable, .verifyFull, .disable], "loopback or not, host by host")
        #expect(hosts.endpoints.allSatisfy { $0.username == "skiff" && $0.database == "wallet" && $0.password == "env" })
        #expect(hosts.target == .readWrite)
        #expect(try PostgresHosts("postgres://skiff@db/wallet", environment: [:]).target == .any, "libpq's default")
        #expect(try PostgresHosts("postgres://skiff@a,b/wallet", environment: [:]).target == .readWrite, "a server that writes follows the primary")
        for value in PostgresHosts.TargetSessionAttributes.allCases {
            #expect(try PostgresHosts("postgres://skiff@a,b/wallet?target_session_attrs=\(value.rawValue)", environment: [:]).target == value)
        }
        let unknown = #expect(throws: PostgresHosts.ParseError.self) {
            try PostgresHosts("postgres://skiff@a,b/wallet?target_session_attrs=read_write", environment: [:])
        }
        #expect(unknown?.description == "target_session_attrs=read_write is not supported: use any, read-write, primary, standby, prefer-standby.")
        #expect(throws: PostgresURL.ParseError.self) { try PostgresHosts("postgres://skiff@a,,b/wallet", environment: [:]) }
        #expect(throws: PostgresURL.ParseError.self) {
            try PostgresHosts("postgres://skiff@a,b/wallet?password=hunter2", environment: [:])
        }
        #expect(throws: PostgresURL.ParseError.self) { try PostgresHosts("postgres://skiff@a,b/wallet?sslmode=prefer", environment: [:]) }

        let passfile = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: passfile) }
        try "h1:5432:wallet:skiff:first\nh2:5432:wallet:skiff:second\n".write(to: passfile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passfile.path)
        let fromFile = try PostgresHosts("postgres://skiff@h1,h2/wallet", environment: ["PGPASSFILE": passfile.path])
        #expect(fromFile.endpoints.map(\.password) == ["first", "second"])
    }

    @Test("A multi-host location is logged with every host and never its password")
    func multiHostDescription() {
        let location = DatabaseLocation.postgres(url: "postgres://skiff:s3cr3t@h1:5432,h2:5433/wallet?target_session_attrs=read-write&password=x")
        #expect(location.description == "postgres://skiff:***@h1:5432,h2:5433/wallet?target_session_attrs=read-write&password=***")
    }

    @Test("target_session_attrs picks as libpq does: the first that answers, takes writes, is or is not in recovery")
    func pick() {
        let primary = PostgresHosts.Role(readOnly: false, inRecovery: false)
        let standby = PostgresHosts.Role(readOnly: true, inRecovery: true)
        let readOnlyPrimary = PostgresHosts.Role(readOnly: true, inRecovery: false)
        let roles: [PostgresHosts.Role?] = [nil, standby, readOnlyPrimary, primary]
        #expect(PostgresHosts.pick(roles, for: .any) == 1)
        #expect(PostgresHosts.pick(roles, for: .readWrite) == 3)
        #expect(PostgresHosts.pick(roles, for: .primary) == 2)
        #expect(PostgresHosts.pick(roles, for: .standby) == 1)
        #expect(PostgresHosts.pick([nil, primary, standby], for: .preferStandby) == 2)
        #expect(PostgresHosts.pick([nil, primary], for: .preferStandby) == 1)
        #expect(PostgresHosts.pick([nil, standby], for: .readWrite) == nil)
        #expect(PostgresHosts.pick([nil, nil], for: .any) == nil)
    }

    @Test("A password in the URL's query is refused, and neither the refusal nor any log line of the start shows it")
    func passwordInQuery() async throws {
        let url = "postgres://skiff@127.0.0.1:1/wallet?sslmode=disable&password=hunter2-secret"
        let error = #expect(throws: PostgresURL.ParseError.self) { try PostgresURL(url, environment: [:]) }
        #expect(error?.description.contains("PGPASSFILE") == true)
        #expect(DatabaseLocation.postgres(url: url).description
            == "postgres://skiff@127.0.0.1:1/wallet?sslmode=disable&password=***")

        var server = try TestServer()
        defer { server.remove() }
        server.configuration.database = .postgres(url: url)
        server.configuration.fingerprintKey = Data(repeating: 7, count: 32).base64EncodedString()
        let refusal = await #expect(throws: (any Error).self) { _ = try await buildApplication(server.configuration) }
        #expect(!"\(String(describing: refusal))".contains("hunter2"))
        #expect(server.logText.contains("opening PostgreSQL"))
        #expect(!server.logText.contains("hunter2"), "\(server.logText)")
    }

    @Test("The password comes from the URL, else PGPASSWORD, else the password file (PGPASSFILE, else ~/.pgpass)")
    func passwordSources() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".pgpass").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("db.internal:5432:wallet:skiff:from-file\n".utf8)))
        chmod(file, 0o600)
        let url = "postgres://skiff@db.internal/wallet"
        #expect(try PostgresURL(url, environment: ["HOME": folder.path]).password == "from-file")
        #expect(try PostgresURL(url, environment: ["PGPASSFILE": file]).password == "from-file")
        #expect(try PostgresURL(url, environment: ["PGPASSFILE": file, "PGPASSWORD": "from-env"]).password == "from-env")
        #expect(try PostgresURL("postgres://skiff:from-url@db.internal/wallet", environment: ["PGPASSFILE": file]).password == "from-url")
        #expect(try PostgresURL("postgres://other@db.internal/wallet", environment: ["PGPASSFILE": file]).password == nil)
        #expect(try PostgresURL(url, environment: ["HOME": folder.appendingPathComponent("none").path]).password == nil)
    }

    @Test("The password file: host:port:database:username:password, * matches anything, \\: and \\\\ escape, # comments, first match wins")
    func passwordFileFormat() {
        let text = """
            # a comment:*:*:*:not-this
            other.host:5432:wallet:skiff:wrong-host
            db.internal:6432:*:skiff:wrong-port
            db.internal:*:wallet:skiff:pa\\:ss\\\\word
            *:*:*:*:fallback
            """
        #expect(PostgresPasswordFile.password(in: text, host: "db.internal", port: 5432, database: "wallet", username: "skiff")
            == "pa:ss\\word")
        #expect(PostgresPasswordFile.password(in: text, host: "db.internal", port: 6432, database: "x", username: "skiff")
            == "wrong-port")
        #expect(PostgresPasswordFile.password(in: text, host: "elsewhere", port: 1, database: "x", username: "y") == "fallback")
        #expect(PostgresPasswordFile.password(in: "short:line", host: "a", port: 1, database: "b", username: "c") == nil)
    }

    @Test("A password file that group or others may read or write is refused, with the chmod that fixes it", arguments: [0o640, 0o604, 0o644])
    func passwordFileOpenToOthers(mode: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("*:*:*:*:secret\n".utf8)))
        chmod(file, mode_t(mode))
        let error = #expect(throws: OwnerOnlyFile.Refusal.self) {
            try PostgresURL("postgres://skiff@db.internal/wallet", environment: ["PGPASSFILE": file])
        }
        #expect(error?.description == "The password file \(file) can be read or written by other users "
            + "(mode \(String(mode, radix: 8))); make it the owner's alone with `chmod 600 \(file)` and start again.")
    }

    @Test("Against the test PostgreSQL (no TLS): sslmode=require stops the start at once saying the server offers no TLS; disable works")
    func liveSSLModes() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let error = await #expect(throws: PostgresURL.ConnectionError.self) {
                _ = try await PostgresDatabase.open(url: url + "?sslmode=require", logger: TestStore.logger)
            }
            #expect(error?.description.contains("does not offer TLS, which sslmode=require requires") == true)
            let database = try await PostgresDatabase.open(url: url + "?sslmode=disable", logger: TestStore.logger)
            #expect(try await database.isEmpty())
            await database.close()
        }
    }

    @Test("Against the test PostgreSQL: a multi-host URL whose first host is down opens on the next; one that asks for a standby names every host and what it is")
    func liveMultiHost() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let parts = try #require(PostgresURLParts(url))
            let live = try #require(parts.hosts.first)
            // Port 1 on loopback: nothing listens there.
            let twoHosts = PostgresURLParts(url)!.url(forHost: "127.0.0.1:1,\(live)")
            let hosts = try PostgresHosts(twoHosts + "?target_session_attrs=read-write", environment: ProcessInfo.processInfo.environment)
            let chosen = try await hosts.choose(logger: TestStore.logger)
            #expect("\(chosen.host):\(chosen.port)" == live)
            let database = try await PostgresDatabase.open(url: twoHosts + "?target_session_attrs=primary", logger: TestStore.logger)
            #expect(try await database.isEmpty())
            await database.close()
            let error = await #expect(throws: PostgresURL.ConnectionError.self) {
                _ = try await PostgresDatabase.open(url: twoHosts + "?target_session_attrs=standby", logger: TestStore.logger)
            }
            #expect(error?.description.hasPrefix("No host of the database URL fits target_session_attrs=standby: ") == true)
            #expect(error?.description.contains("127.0.0.1:1 could not be reached") == true, "\(String(describing: error))")
            #expect(error?.description.contains("\(live) is a primary") == true, "\(String(describing: error))")
        }
    }

    @Test("Migrations are recorded once per name (and under the old numbers, for older binaries), even when two servers open the database at the same moment")
    func concurrentMigrations() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let stores = try await withThrowingTaskGroup(of: (any RepositoryStore).self) { group in
                for _ in 0..<4 {
                    group.addTask { try await openRepositoryStore(.postgres(url: url), logger: TestStore.logger) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for store in stores { await store.close() }
            let (names, versions) = try await TestPostgres.withAdmin(url) { client in
                var names: [String] = []
                for try await name in try await client.query("SELECT name FROM schema_migration_names ORDER BY applied_at, name")
                    .decode(String.self) {
                    names.append(name)
                }
                var versions: [Int] = []
                for try await version in try await client.query("SELECT version FROM schema_migrations ORDER BY version")
                    .decode(Int.self) {
                    versions.append(version)
                }
                return (names, versions)
            }
            #expect(names.count == SchemaMigration.allCases.count)
            #expect(Set(names) == Set(SchemaMigration.allCases.map(\.name)))
            // A binary from before the names reads its own numbers and one above its newest (the migrations since,
            // `card-network` first), so it refuses this schema rather than run on one it does not know.
            #expect(versions == Array(1...PostgresMigrations.legacyNewestVersion + 1))
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
