import Foundation
import Testing
@testable import SkiffConfigFile

@Suite("ConfigFile: a TOML file's settings, each with its line")
struct ConfigFileTests {
    @Test("settings at the top and in a table come back typed, in the file's order, with their lines")
    func settingsAndLines() throws {
        let file = try ConfigFile.parse(
            """
            # a comment
            server = "https://wallet.example.com"
            lock_after = 600
              mouse = false
            proxies = ["10.0.0.1", "10.0.0.2"]

            [keys]
            "send_money" = "F2"
            """,
            path: "config.toml"
        )
        #expect(file.settings == [
            .init(table: nil, key: "server", value: .string("https://wallet.example.com"), line: 2),
            .init(table: nil, key: "lock_after", value: .integer(600), line: 3),
            .init(table: nil, key: "mouse", value: .boolean(false), line: 4),
            .init(table: nil, key: "proxies", value: .strings(["10.0.0.1", "10.0.0.2"]), line: 5),
            .init(table: "keys", key: "send_money", value: .string("F2"), line: 8),
        ])
    }

    @Test("a file that is not TOML is refused with the parser's line", arguments: [
        ("server = \n", 1),
        ("a = 1\nb = \"open\n", 2),
        ("a = 1\na = 2\n", 2),
    ])
    func notTOML(text: String, line: Int) {
        let error = #expect(throws: ConfigFileError.self) { try ConfigFile.parse(text, path: "config.toml") }
        #expect(error?.line == line)
        #expect(error?.description.hasPrefix("config.toml line \(line): is not valid TOML") == true)
    }

    @Test("a value TOML types otherwise is named for the error")
    func otherTypes() throws {
        let file = try ConfigFile.parse("a = 1.5\nb = [1, \"x\"]\nc = 1979-05-27\n", path: "f")
        #expect(file.settings.map(\.value.typeName) == ["a decimal number", "an array that is not all strings", "a date or time"])
    }

    @Test("a nested table is refused with its key")
    func nestedTable() {
        let error = #expect(throws: ConfigFileError.self) { try ConfigFile.parse("[keys]\n[keys.inner]\na = 1\n", path: "f") }
        #expect(error?.key == "keys.inner")
    }

    @Test("a missing file says it cannot be read")
    func missing() {
        let error = #expect(throws: ConfigFileError.self) { try ConfigFile.read(path: "/nonexistent/skiff.toml") }
        #expect(error?.description.hasPrefix("/nonexistent/skiff.toml: cannot be read") == true)
    }

    @Test("the server's file (ownerWritesOnly) is refused when group or others may write it; another program's is read")
    func writableByOthers() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("port = 8080\n".utf8), attributes: [.posixPermissions: 0o664])
        let error = #expect(throws: ConfigFileError.self) { try ConfigFile.read(path: path, ownerWritesOnly: true) }
        #expect(error?.description.contains("can be changed by other users (mode 664)") == true, "\(String(describing: error))")
        #expect(try ConfigFile.read(path: path).settings.count == 1)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try ConfigFile.read(path: path, ownerWritesOnly: true).settings.count == 1)
    }

    @Test("strings are quoted as TOML basic strings")
    func quoting() {
        #expect(ConfigValue.quoted("a\"b\\c\n") == #""a\"b\\c\n""#)
        #expect(ConfigValue.strings(["x", "y"]).description == #"["x", "y"]"#)
    }
}

@Suite("ConfigArguments: a file and the environment under the command line")
struct ConfigArgumentsTests {
    let options: [ConfigArguments.Option] = [
        .init(name: "port", kind: .value, valueName: "port"),
        .init(name: "database", kind: .value, valueName: "url-or-path"),
        .init(name: "no-migrate", kind: .flag),
        .init(name: "trusted-proxy", kind: .repeating, valueName: "address"),
    ]
    let file = try! ConfigFile.parse(
        "port = 9000\ndatabase = \"/var/lib/skiff/skiff.sqlite\"\nno_migrate = true\ntrusted_proxy = [\"10.0.0.1\", \"10.0.0.2\"]\n",
        path: "/etc/skiff/server.toml"
    )

    @Test("the file fills what the command line leaves; the environment wins over the file; the command line over both")
    func precedence() throws {
        let made = try ConfigArguments.make(
            commandLine: ["--port", "7000"], options: options, known: options, file: file,
            environment: ["SKIFF_DATABASE_URL": "postgres://skiff@db/skiff"], renamedVariables: ["database": "SKIFF_DATABASE_URL"]
        )
        #expect(made.arguments == [
            "--database=postgres://skiff@db/skiff", "--no-migrate", "--trusted-proxy=10.0.0.1", "--trusted-proxy=10.0.0.2",
        ])
        #expect(made.sources["database"] == .environment("SKIFF_DATABASE_URL"))
        #expect(made.sources["no-migrate"] == .file(path: "/etc/skiff/server.toml", line: 3))
        #expect(made.sources["port"] == nil)
    }

    @Test("a flag the environment turns off is not given, whatever the file says")
    func environmentFlagOff() throws {
        let made = try ConfigArguments.make(
            commandLine: [], options: options, known: options, file: file, environment: ["SKIFF_NO_MIGRATE": "0"]
        )
        #expect(!made.arguments.contains("--no-migrate"))
    }

    @Test("only this command's options are given; another command's settings in the file are allowed")
    func otherCommandsSettings() throws {
        let made = try ConfigArguments.make(
            commandLine: [], options: [options[1]], known: options, file: file, environment: [:]
        )
        #expect(made.arguments == ["--database=/var/lib/skiff/skiff.sqlite"])
    }

    @Test("an unknown key, a wrong type, a table and a bad variable are refused with the line, the key and what was expected", arguments: [
        ("prot = 9000\n", [String: String](), "/etc/skiff/server.toml line 1: prot is not a setting; expected one of database, no_migrate, port, trusted_proxy"),
        ("port = 9000\nno_migrate = \"yes\"\n", [:], "/etc/skiff/server.toml line 2: no_migrate is a string; expected true or false"),
        ("trusted_proxy = [1, 2]\n", [:], "/etc/skiff/server.toml line 1: trusted_proxy is an array that is not all strings; expected an array of strings (address)"),
        ("port = [\"1\"]\n", [:], "/etc/skiff/server.toml line 1: port is an array of strings; expected a string or a number (port)"),
        ("[serve]\nport = 1\n", [:], "/etc/skiff/server.toml line 2: [serve] is not a table here; expected none"),
        ("", ["SKIFF_NO_MIGRATE": "yes"], "the environment: SKIFF_NO_MIGRATE is \"yes\"; expected 1, true, 0, false or empty"),
    ])
    func refused(text: String, environment: [String: String], message: String) throws {
        let file = try ConfigFile.parse(text, path: "/etc/skiff/server.toml")
        let error = #expect(throws: ConfigFileError.self) {
            try ConfigArguments.make(commandLine: [], options: options, known: options, file: file, environment: environment)
        }
        #expect(error?.description == message)
    }
}
