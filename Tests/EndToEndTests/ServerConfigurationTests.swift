import Foundation
import Testing

extension EndToEnd {
    /// The real `skiff-server` with a server.toml, environment variables and its generated man page and completions.
    @Suite("skiff-server: server.toml, SKIFF_* and the generated documentation")
    struct ServerConfigurationTests {
        /// Runs skiff-server with `arguments` and `environment` (over a minimal one).
        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProgramRun {
            try await ProgramRun.run(
                "skiff-server", arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) { $1 }
            )
        }

        /// A temporary folder with `server.toml` holding `text`.
        func folder(_ text: String) throws -> String {
            let directory = NSTemporaryDirectory() + "skiff-server-config-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/server.toml"))
            return directory
        }

        @Test("the database comes from the command line over SKIFF_DATABASE_URL over server.toml")
        func precedence() async throws {
            let directory = try folder("")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try Data("database = \"\(directory)/file.sqlite\"\nlog_level = \"error\"\n".utf8)
                .write(to: URL(fileURLWithPath: directory + "/server.toml"))
            let config = ["--config", directory + "/server.toml"]
            let environment = ["SKIFF_DATABASE_URL": directory + "/environment.sqlite"]
            #expect(try await run(["migrate"] + config).status == 0)
            #expect(FileManager.default.fileExists(atPath: directory + "/file.sqlite"))
            #expect(try await run(["migrate"] + config, environment: environment).status == 0)
            #expect(FileManager.default.fileExists(atPath: directory + "/environment.sqlite"))
            #expect(try await run(["migrate", "--database", directory + "/command-line.sqlite"] + config, environment: environment).status == 0)
            #expect(FileManager.default.fileExists(atPath: directory + "/command-line.sqlite"))
        }

        @Test("a broken server.toml or variable is refused before anything opens, with the line, the key and what was expected", arguments: [
            ("port = 8080\nprot = 8081\n", [String: String](), 78, "server.toml line 2: prot is not a setting; expected one of "),
            ("no_migrate = \"yes\"\n", [:], 78, "server.toml line 1: no_migrate is a string; expected true or false"),
            ("port = 8080\nport = 8081\n", [:], 78, "server.toml line 2: is not valid TOML"),
            ("port = \"eighty\"\n", [:], 64, "came from "),
            ("", ["SKIFF_NO_MIGRATE": "yes"], 78, "the environment: SKIFF_NO_MIGRATE is \"yes\"; expected 1, true, 0, false or empty"),
        ])
        func refused(text: String, environment: [String: String], status: Int32, message: String) async throws {
            let directory = try folder(text)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try await run(
                ["serve", "--config", directory + "/server.toml", "--database", directory + "/skiff.sqlite"], environment: environment
            )
            #expect(result.status == status)
            #expect(result.errors.contains(message), "\(result.errors)")
            if status == 64 {
                #expect(result.errors.contains("'--port <port>'"), "\(result.errors)")
                #expect(result.errors.contains("server.toml line 1 (port)"), "\(result.errors)")
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/skiff.sqlite"))
        }

        @Test("--config names a file that must exist")
        func missingConfig() async throws {
            let result = try await run(["migrate", "--config", "/nonexistent/server.toml"])
            #expect(result.status == 78)
            #expect(result.errors.contains("/nonexistent/server.toml: does not exist (given with --config)"))
        }

        /// Every option the parser shows, by command, from its own description.
        func declaredOptions() async throws -> Set<String> {
            let dump = try await run(["--experimental-dump-help"])
            let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
            var names = Set<String>()
            func collect(_ command: [String: Any]) {
                for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool == true {
                    for name in argument["names"] as? [[String: Any]] ?? [] {
                        guard let kind = name["kind"] as? String, let text = name["name"] as? String else { continue }
                        names.insert((kind == "long" ? "--" : "-") + text)
                    }
                }
                for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
            }
            collect(try #require(tool["command"] as? [String: Any]))
            return names
        }

        @Test("skiff-server(1) lists exactly the options the parser declares, and man reads it")
        func manPage() async throws {
            let declared = try await declaredOptions()
            #expect(declared.contains("--key-file") && declared.contains("--no-migrate") && declared.contains("--config"))
            let page = try await run(["--generate-man"])
            #expect(page.status == 0)
            let regex = try Regex(#"\\fB((?:\\-)+[a-z\\-]+)\\fR"#)
            let listed = Set(page.output.matches(of: regex).compactMap { $0.output[1].substring.map { $0.replacingOccurrences(of: "\\-", with: "-") } })
            #expect(listed == declared)
            #expect(page.output.contains("SKIFF_DATABASE_URL") && page.output.contains("SKIFF_KEY_FILE"))
        }

        @Test("the bash, zsh and fish completions offer every option the parser declares", arguments: ["bash", "zsh", "fish"])
        func completions(shell: String) async throws {
            let declared = try await declaredOptions()
            let script = try await run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for name in declared where name.hasPrefix("--") {
                let bare = String(name.dropFirst(2))
                #expect(script.output.contains(name) || script.output.contains("-l '\(bare)'") || script.output.contains("-l \(bare)"), "\(shell): \(name)")
            }
        }
    }
}
