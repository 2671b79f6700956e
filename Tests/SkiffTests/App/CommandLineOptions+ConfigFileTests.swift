import Foundation
import SkiffConfigFile
import Testing
import TerminalUI
@testable import Skiff

@Suite("skiff's config.toml: the command line over the environment over the file over the defaults")
struct CommandLineOptionsConfigFileTests {
    /// A temporary `$XDG_CONFIG_HOME` holding `skiff/config.toml` with `text` (none when nil).
    private func environment(_ text: String?) throws -> [String: String] {
        let home = NSTemporaryDirectory() + "skiff-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home + "/skiff", withIntermediateDirectories: true)
        if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: home + "/skiff/config.toml")) }
        return ["XDG_CONFIG_HOME": home, "HOME": "/nonexistent"]
    }

    private func resolved(_ arguments: [String], _ environment: [String: String]) throws -> CommandLineOptions {
        switch try CommandLineOptions.resolve(arguments, environment: environment) {
        case .run(let options), .printConfig(let options): return options
        case .help, .version:
            Issue.record("\(arguments) asked for help or the version")
            return CommandLineOptions()
        }
    }

    private func refusal(_ text: String) throws -> String? {
        let environment = try environment(text)
        let error = #expect(throws: ConfigFileError.self) { try CommandLineOptions.resolve([], environment: environment) }
        return error?.description.replacingOccurrences(of: environment["XDG_CONFIG_HOME"] ?? "", with: "$XDG_CONFIG_HOME")
    }

    @Test("the file sets what the command line leaves, and says where each value came from")
    func fileUnderCommandLine() throws {
        let environment = try environment(
            """
            server = "https://wallet.example.com"
            lock_after = 600
            mouse = false
            theme = "monochrome"

            [keys]
            send_money = "F2"
            refresh = ["r", "F5"]
            """
        )
        let path = environment["XDG_CONFIG_HOME"]! + "/skiff/config.toml"
        let options = try resolved(["--lock-after", "30"], environment)
        #expect(options.server == "https://wallet.example.com")
        #expect(options.lockAfterSeconds == 30)
        #expect(options.noMouse)
        #expect(options.theme == .monochrome)
        #expect(options.sources["server"] == .file(path: path, line: 1))
        #expect(options.sources["lock_after"] == .commandLine("--lock-after"))
        #expect(options.keys.keys(for: .sendMoney) == [.function(2)])
        #expect(options.keys.keys(for: .refresh) == [WalletKeys.standard.keys(for: .refresh)[0], .function(5)])
        #expect(options.keys.entry(for: .sendMoney).help == WalletKeys.standard.entry(for: .sendMoney).help)
        #expect(options.keys.keys(for: .quit) == WalletKeys.standard.keys(for: .quit))
    }

    @Test("without a file, the defaults; SKIFF_NO_MOUSE wins over mouse = true")
    func defaultsAndEnvironment() throws {
        var environment = try environment(nil)
        #expect(try resolved([], environment) == CommandLineOptions().with { $0.configFile = environment["XDG_CONFIG_HOME"]! + "/skiff/config.toml" })
        environment = try self.environment("mouse = true\n")
        environment["SKIFF_NO_MOUSE"] = "1"
        let options = try resolved([], environment)
        #expect(options.noMouse)
        #expect(options.sources["mouse"] == .environment("SKIFF_NO_MOUSE"))
    }

    @Test("--config names another file, which must exist")
    func explicitFile() throws {
        let environment = try environment(nil)
        let other = environment["XDG_CONFIG_HOME"]! + "/other.toml"
        try Data("lock_after = 0\n".utf8).write(to: URL(fileURLWithPath: other))
        #expect(try resolved(["--config", other], environment).lockAfterSeconds == 0)
        let error = #expect(throws: ConfigFileError.self) {
            try CommandLineOptions.resolve(["--config", other + ".missing"], environment: environment)
        }
        #expect(error?.description == "\(other).missing: does not exist (given with --config)")
    }

    @Test("a broken file is refused whole, with its line, its key and what was expected", arguments: [
        ("lock_after = \"soon\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 1: lock_after is a string; expected a whole number of seconds, 0 or more"),
        ("server = \"https://wallet.example.com\"\nmosue = false\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: mosue is not a setting; expected one of server, ca_file, lock_after, data_dir, mouse, theme, or a [keys] table"),
        ("mouse = 0\n", "$XDG_CONFIG_HOME/skiff/config.toml line 1: mouse is a whole number; expected true or false"),
        ("lock_after = -5\n", "$XDG_CONFIG_HOME/skiff/config.toml line 1: lock_after is a whole number; expected a whole number of seconds, 0 or more"),
        ("[colors]\nbalance = \"green\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: [colors] is not a table here; expected [keys]"),
        ("[keys]\nsend_mony = \"s\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: keys.send_mony is not a command; expected one of "),
        ("[keys]\nsend_money = \"Hyper-S\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: keys.send_money names no key: \"Hyper-S\"; expected a key, or an array of keys"),
        ("[keys]\nsend_money = 5\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: keys.send_money is a whole number; expected a key"),
        ("lock_after = 1\nlock_after = 2\n", "$XDG_CONFIG_HOME/skiff/config.toml line 2: is not valid TOML"),
        ("server = \"http://wallet.example.com\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 1: server "),
        ("theme = \"blue\"\n", "$XDG_CONFIG_HOME/skiff/config.toml line 1: theme is refused: The value 'blue' is invalid for '--theme <theme>': one of auto, color, monochrome."),
    ])
    func refused(text: String, message: String) throws {
        let description = try #require(try refusal(text))
        #expect(description.hasPrefix(message), "\(description)")
    }

    @Test("a key bound to a second command is refused at the override's line, naming the other command")
    func boundTwice() throws {
        let refresh = WalletKeys.standard.keys(for: .refresh)[0].label
        let description = try #require(try refusal("lock_after = 1\n[keys]\nsend_money = \"\(refresh)\"\n"))
        #expect(description.hasPrefix("$XDG_CONFIG_HOME/skiff/config.toml line 3: keys.send_money binds \(refresh), which refresh has too"), "\(description)")
    }

    @Test("a key the kit keeps on every screen (help, fields, a list's rows) is refused for a command", arguments: KitKeys.all.sorted { $0.label < $1.label })
    func kitKeyRefused(key: Key) throws {
        let description = try #require(try refusal("[keys]\nsend_money = \"\(key.label)\"\n"), "\(key.label) was accepted")
        #expect(description.hasPrefix(
            "$XDG_CONFIG_HOME/skiff/config.toml line 2: keys.send_money binds \(key.label), which every screen keeps for help"
        ), "\(description)")
    }

    @Test("a command may be given back its own standard key even where the kit has it too (back is Esc)")
    func ownKitKeyAllowed() throws {
        let back = WalletKeys.standard.keys(for: .back)
        #expect(!KitKeys.all.isDisjoint(with: back))
        let options = try resolved([], try environment("[keys]\nback = \"\(back[0].label)\"\n"))
        #expect(options.keys.keys(for: .back) == back)
    }

    @Test("commands that share a key in the standard map may keep sharing it")
    func standardSharingAllowed() throws {
        let submit = WalletKeys.standard.keys(for: .submit)
        #expect(submit == WalletKeys.standard.keys(for: .markRead))
        let options = try resolved([], try environment("[keys]\nmark_read = \"\(submit[0].label)\"\n"))
        #expect(options.keys.keys(for: .markRead) == submit)
    }

    @Test("--print-config writes each setting as the file would, with where it came from")
    func printConfig() throws {
        let environment = try environment("lock_after = 600\n[keys]\nsend_money = \"F2\"\n")
        let path = environment["XDG_CONFIG_HOME"]! + "/skiff/config.toml"
        guard case .printConfig(let options) = try CommandLineOptions.resolve(["--print-config", "--no-mouse"], environment: environment) else {
            Issue.record("--print-config did not ask to print the configuration")
            return
        }
        let lines = options.configurationText.split(separator: "\n").map(String.init)
        #expect(lines.contains("# file: \(path)"))
        #expect(lines.contains { $0.hasPrefix("# server is not set") && $0.hasSuffix("# default") })
        #expect(lines.contains { $0.hasPrefix("lock_after = 600 ") && $0.hasSuffix("# \(path) line 1") })
        #expect(lines.contains { $0.hasPrefix("mouse = false ") && $0.hasSuffix("# command line --no-mouse") })
        #expect(lines.contains { $0.hasPrefix("send_money = \"F2\" ") && $0.contains("# \(path) line 3;") })
        #expect(lines.contains { $0.hasPrefix("quit = ") && $0.contains("# default;") })
        // The text is itself a config file that reads back to the same settings.
        let reread = try ConfigFile.parse(options.configurationText, path: "printed")
        #expect(reread.settings.contains { $0.key == "lock_after" && $0.value == .integer(600) })
    }

    @Test("key names read back from their labels, and nothing else is a key", arguments: [
        Key.character("s"), .character(" "), .enter, .escape, .tab, .backTab, .up, .pageDown, .ctrl("r"), .function(12),
    ])
    func keyLabels(key: Key) {
        #expect(Key(label: key.label) == key)
        #expect(Key(label: key.label.lowercased()) == key || key.label.count == 1)
    }

    @Test("labels that name no key", arguments: ["", "Hyper-S", "F13", "Ctrl-", "ab", "Ctrl-1"])
    func notKeys(label: String) {
        #expect(Key(label: label) == nil)
    }
}

extension CommandLineOptions {
    fileprivate func with(_ change: (inout CommandLineOptions) -> Void) -> CommandLineOptions {
        var copy = self
        change(&copy)
        return copy
    }
}
