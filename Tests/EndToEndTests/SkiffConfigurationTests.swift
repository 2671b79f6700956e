import Foundation
import Testing

extension EndToEnd {
    /// The real `skiff` with a config.toml: refused before the terminal is touched when broken, printed by
    /// `--print-config` when not.
    @Suite("skiff: config.toml")
    struct SkiffConfigurationTests {
        /// Runs skiff with `arguments`, `$XDG_CONFIG_HOME/skiff/config.toml` holding `text`, and no terminal.
        func run(_ arguments: [String], config text: String) async throws -> (status: Int32, output: String, errors: String) {
            let home = NSTemporaryDirectory() + "skiff-config-e2e-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: home) }
            try FileManager.default.createDirectory(atPath: home + "/config/skiff", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: home + "/config/skiff/config.toml"))
            let result = try await ProgramRun.run("skiff", arguments, environment: [
                "PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache", "TERM": "xterm-256color",
            ])
            return (result.status, result.output.replacingOccurrences(of: home, with: "$HOME"), result.errors.replacingOccurrences(of: home, with: "$HOME"))
        }

        @Test("a key bound twice stops skiff at start with the line, the key and what was expected; nothing is created")
        func refused() async throws {
            let result = try await run([], config: "lock_after = 600\n\n[keys]\nsend_money = \"r\"\n")
            #expect(result.status == 78)
            #expect(result.errors == "skiff: $HOME/config/skiff/config.toml line 4: keys.send_money binds r, which refresh has too; expected a key no other command has\n")
        }

        @Test("--print-config shows the file's values over the defaults, under the command line's")
        func printConfig() async throws {
            let result = try await run(["--print-config", "--lock-after", "60"], config: "lock_after = 600\nmouse = false\n")
            #expect(result.status == 0)
            let lines = result.output.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("lock_after = 60 ") && $0.hasSuffix("# command line --lock-after") })
            #expect(lines.contains { $0.hasPrefix("mouse = false ") && $0.hasSuffix("# $HOME/config/skiff/config.toml line 2") })
        }
    }
}
