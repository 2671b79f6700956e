import Crypto
import Foundation
import GRDB
import Testing
@testable import SkiffServer

@Suite("Server key")
struct ServerKeyTests {
    /// A scratch folder, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skiff-key-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        var generatedKeyPath: String { url.appendingPathComponent("server.key").path }

        /// Writes `contents` to a file named `name` in the folder with `mode` and returns its path.
        func write(_ contents: Data, to name: String = "fingerprint.key", mode: Int = 0o600) throws -> String {
            let path = url.appendingPathComponent(name).path
            try ServerKeyTests.write(contents, to: path, mode: mode)
            return path
        }

        func configuration(
            database: DatabaseLocation? = nil, fingerprintKey: String? = nil, keyFile: String? = nil
        ) -> SkiffServerConfiguration {
            SkiffServerConfiguration(
                database: database ?? .sqlite(path: url.appendingPathComponent("skiff.sqlite").path),
                smsOutboxPath: url.appendingPathComponent("sms-outbox.jsonl").path,
                fingerprintKey: fingerprintKey, keyFile: keyFile
            )
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Writes `contents` to a new file at `path` created with `mode`.
    static func write(_ contents: Data, to path: String, mode: Int = 0o600) throws {
        guard FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: mode]) else {
            throw TestFailure("cannot write \(path)")
        }
    }

    static let postgres = DatabaseLocation.postgres(url: "postgres://skiff@127.0.0.1:5432/skiff")
    static let raw = Data((0..<32).map { UInt8($0 * 7 % 251) })

    static func expectedFingerprint(_ digits: String, under raw: Data) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("card-number\u{0}\(digits)".utf8), using: SymmetricKey(data: raw))
        return Data(code).hexString
    }

    @Test("On SQLite without a key, server.key is generated once with mode 0600 and read back the same")
    func generatedOnSQLite() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let first = try ServerKey.load(for: folder.configuration())
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.generatedKeyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
        let second = try ServerKey.load(for: folder.configuration())
        #expect(first.cardFingerprint(Seeds.visa) == second.cardFingerprint(Seeds.visa))
        #expect(first.cardFingerprint(Seeds.visa) != first.cardFingerprint(Seeds.mastercard))
    }

    @Test("SKIFF_FINGERPRINT_KEY's key is used instead of a generated one, and a short one is refused")
    func configuredKey() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let key = try ServerKey.load(for: folder.configuration(fingerprintKey: Self.raw.base64EncodedString()))
        #expect(!FileManager.default.fileExists(atPath: folder.generatedKeyPath))
        #expect(key.cardFingerprint(Seeds.visa) == Self.expectedFingerprint(Seeds.visa, under: Self.raw))
        let short = Data(repeating: 1, count: 8).base64EncodedString()
        #expect {
            try ServerKey.load(for: folder.configuration(fingerprintKey: short))
        } throws: { error in
            (error as? ServerKey.LoadError)?.description == "SKIFF_FINGERPRINT_KEY must be base64 of at least 32 bytes."
        }
    }

    @Test("A key file's base64 key is used, its final newline ignored, on SQLite and on PostgreSQL alike")
    func keyFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.write(Data((Self.raw.base64EncodedString() + "\n").utf8))
        for database in [nil, Self.postgres] {
            let key = try ServerKey.load(for: folder.configuration(database: database, keyFile: path))
            #expect(key.cardFingerprint(Seeds.visa) == Self.expectedFingerprint(Seeds.visa, under: Self.raw))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.generatedKeyPath))
    }

    /// Key file contents that must be refused.
    static let badKeyFiles: [String: Data] = [
        "raw 32 bytes": Data((0..<32).map { UInt8($0 + 128) }),
        "short base64": Data(Data(repeating: 3, count: 31).base64EncodedString().utf8),
        "two keys": Data((raw.base64EncodedString() + "\n" + raw.base64EncodedString()).utf8),
        "empty": Data(),
    ]

    @Test(
        "A key file that is not base64 of at least 32 bytes is refused, saying what it must hold",
        arguments: badKeyFiles.keys.sorted()
    )
    func badKeyFile(name: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.write(try #require(Self.badKeyFiles[name]))
        #expect {
            try ServerKey.load(for: folder.configuration(keyFile: path))
        } throws: { error in
            guard case .malformedKeyFile(path) = error as? ServerKey.LoadError else { return false }
            return "\(error)".contains("must hold base64 of at least 32 bytes")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.generatedKeyPath))
    }

    @Test("A missing key file is refused, and so are a key file and SKIFF_FINGERPRINT_KEY together")
    func missingOrTwoKeys() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("absent.key").path
        #expect {
            try ServerKey.load(for: folder.configuration(keyFile: missing))
        } throws: { error in
            guard case .unreadableKeyFile(missing) = error as? ServerKey.LoadError else { return false }
            return true
        }
        let path = try folder.write(Data(Self.raw.base64EncodedString().utf8))
        #expect {
            try ServerKey.load(for: folder.configuration(fingerprintKey: Self.raw.base64EncodedString(), keyFile: path))
        } throws: { error in
            guard case .twoKeysGiven = error as? ServerKey.LoadError else { return false }
            return true
        }
    }

    @Test("On PostgreSQL without a key the server refuses to start and says why, before touching the database")
    func postgresNeedsASharedKey() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        var configuration = folder.configuration(database: Self.postgres)
        configuration.dataDirectory = folder.url.path
        await #expect {
            _ = try await buildApplication(configuration)
        } throws: { error in
            guard case .sharedKeyRequired = error as? ServerKey.LoadError else { return false }
            let text = "\(error)"
            return text.contains("--key-file") && text.contains("SKIFF_FINGERPRINT_KEY")
                && text.contains("would disagree")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.generatedKeyPath))
    }

    @Test("A server given a key file keeps card fingerprints under that key")
    func serverUsesTheKeyFile() async throws {
        var keyed = try TestServer()
        defer { keyed.remove() }
        let path = keyed.directory.appendingPathComponent("shared.key").path
        try Self.write(Data(Self.raw.base64EncodedString().utf8), to: path)
        keyed.configuration.keyFile = path
        let server = keyed
        try await server.withRouter { client in
            let registered = try await server.register(client)
            let added = try await server.addCard(client, token: registered.token)
            #expect(added.status == .created)
        }
        let pool = try DatabasePool(path: server.databasePath)
        let stored = try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT fingerprint FROM cards WHERE last4 = ?", arguments: ["4242"])
        }
        // The simulated card network keys its fingerprints with the server key, marked as its own.
        #expect(stored == ["simulated:" + Self.expectedFingerprint(Seeds.visa, under: Self.raw)])
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("server.key").path))
    }

    @Test(
        "A key file that group or others may read or write is refused, naming the file and the chmod that fixes it",
        arguments: [0o640, 0o604, 0o620, 0o602, 0o644, 0o666]
    )
    func keyFileOpenToOthers(mode: Int) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.write(Data(Self.raw.base64EncodedString().utf8), mode: mode)
        #expect {
            try ServerKey.load(for: folder.configuration(keyFile: path))
        } throws: { error in
            guard case .keyFileOpenToOthers(path, _) = error as? ServerKey.LoadError else { return false }
            return "\(error)".contains("chmod 600 \(path)") && "\(error)".contains(String(mode, radix: 8))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.generatedKeyPath))
        chmod(path, 0o400)
        let key = try ServerKey.load(for: folder.configuration(keyFile: path))
        #expect(key.cardFingerprint(Seeds.visa) == Self.expectedFingerprint(Seeds.visa, under: Self.raw))
    }

    @Test("A generated server.key that group or others may read is refused, not used or replaced")
    func generatedKeyOpenToOthers() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try ServerKey.load(for: folder.configuration())
        chmod(folder.generatedKeyPath, 0o644)
        #expect {
            try ServerKey.load(for: folder.configuration())
        } throws: { error in
            guard case .keyFileOpenToOthers(folder.generatedKeyPath, _) = error as? ServerKey.LoadError else { return false }
            return "\(error)".contains("chmod 600 \(folder.generatedKeyPath)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: folder.generatedKeyPath)[.size] as? NSNumber)?.intValue == 32)
    }

    @Test("The key file can live outside the data directory, which then gets no server.key")
    func keyFileOutsideTheDataDirectory() async throws {
        var server = try TestServer()
        let elsewhere = try Folder()
        defer {
            server.remove()
            elsewhere.remove()
        }
        let path = try elsewhere.write(Data(Self.raw.base64EncodedString().utf8), to: "skiff.key")
        server.configuration.keyFile = path
        #expect(server.configuration.dataDirectory == server.directory.path)
        #expect(!path.hasPrefix(server.configuration.dataDirectory))
        let keyed = server
        try await keyed.withRouter { client in
            let registered = try await keyed.register(client)
            #expect(try await keyed.addCard(client, token: registered.token).status == .created)
        }
        let stored = try await DatabasePool(path: keyed.databasePath).read { db in
            try String.fetchAll(db, sql: "SELECT fingerprint FROM cards WHERE last4 = ?", arguments: ["4242"])
        }
        // The simulated card network keys its fingerprints with the server key, marked as its own.
        #expect(stored == ["simulated:" + Self.expectedFingerprint(Seeds.visa, under: Self.raw)])
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("server.key").path))
    }
}
