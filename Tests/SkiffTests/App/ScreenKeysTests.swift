import Foundation
import SkiffConfigFile
import Testing
import TerminalUI
@testable import Skiff

/// skiff(1)'s KEYS and FILES sections: KEYS from the table of what each screen binds (`CommandLineOptions.screenKeys`),
/// held here to the scenes' own `bind(…)` / `describe(…)` calls, with the keys of the key map; FILES from `AppPaths`.
@Suite("skiff(1): KEYS per screen and FILES")
struct ScreenKeysTests {
    /// Each scene folder's ViewController source, by scene.
    static let viewControllers: [String: String] = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenes = root.appendingPathComponent("Sources/Skiff/Scenes")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []
        var sources: [String: String] = [:]
        for folder in folders where folder != "Shared" {
            let file = scenes.appendingPathComponent(folder).appendingPathComponent("\(folder)ViewController.swift")
            sources[folder] = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        }
        return sources
    }()

    /// The commands a ViewController's source binds or describes (Esc's `.back` aside: every screen has it), and the
    /// calls whose command the scan cannot read (a variable, not `.name`).
    static func boundCommands(in source: String) throws -> (commands: Set<String>, unread: [String]) {
        let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined(separator: "\n")
        let calls = try Regex(#"\b(?:bind|describe)\(\s*([^,)\s]*)"#)
        var commands: Set<String> = []
        var unread: [String] = []
        for match in code.matches(of: calls) {
            let argument = String(match.output[1].substring ?? "")
            if argument.hasPrefix("."), argument.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) {
                commands.insert(String(argument.dropFirst()))
            } else {
                unread.append(String(code[match.range]))
            }
        }
        commands.remove("back")
        return (commands, unread)
    }

    @Test("the scan reads every scene's ViewController and finds Home's and Login's bindings")
    func scanReadsScenes() throws {
        #expect(Self.viewControllers.count >= 15)
        #expect(Self.viewControllers.values.allSatisfy { !$0.isEmpty }, "a scene folder without its ViewController")
        #expect(try Self.boundCommands(in: Self.viewControllers["Home"] ?? "").commands.isSuperset(of: ["sendMoney", "quit"]))
        #expect(try Self.boundCommands(in: "bind(.submit, \"log in\") bind(\n.retry) describe(.markRead) bind(command)")
            == (["submit", "retry", "markRead"], ["bind(command"]))
    }

    @Test("the table lists every scene once, with its title and exactly the commands its ViewController binds")
    func tableMatchesScenes() throws {
        let table = CommandLineOptions.screenKeys
        #expect(Set(table.map(\.scene)) == Set(Self.viewControllers.keys))
        #expect(table.count == Set(table.map(\.scene)).count, "a scene listed twice")
        for screen in table {
            let source = try #require(Self.viewControllers[screen.scene], "\(screen.scene) has no scene folder")
            let (bound, unread) = try Self.boundCommands(in: source)
            #expect(unread.isEmpty, "\(screen.scene): bindings the scan cannot read: \(unread)")
            let listed = screen.commands.map { String(describing: $0) }
            #expect(Set(listed) == bound, "\(screen.scene): listed \(listed.sorted()), bound \(bound.sorted())")
            #expect(listed.count == Set(listed).count, "\(screen.scene) lists a command twice")
            #expect(source.contains("super.init(title: \"\(screen.title)\""), "\(screen.scene)'s title is not \(screen.title)")
        }
    }

    @Test("KEYS has a subsection per screen that binds keys, each command with its keys and help from the key map")
    func keysSection() throws {
        let roff = CommandLineOptions.manPage.roff
        let sections = roff.components(separatedBy: "\n.SH ")
        let keys = try #require(sections.first { $0.hasPrefix("KEYS\n") }, "no KEYS section")
        let keyMap = WalletKeys.standard
        let subsections = keys.components(separatedBy: "\n.SS ")
        for screen in CommandLineOptions.screenKeys where !screen.commands.isEmpty {
            // Each entry ends its line, the subsection's last one too.
            let body = try #require(subsections.first { $0.hasPrefix(ManPage.escaped(screen.title) + "\n") }, "no \(screen.title)") + "\n"
            for command in screen.commands {
                let names = keyMap.keys(for: command).map { "\\fB\(ManPage.escaped($0.label))\\fR" }.joined(separator: ", ")
                #expect(body.contains(".TP\n\(names)\n\(ManPage.escaped(keyMap.entry(for: command).help))\n"), "\(screen.title): \(command)")
            }
        }
        // Screens without keys of their own have no subsection; the keys every screen has come first.
        #expect(!subsections.contains { $0.hasPrefix("Transaction\n") })
        let every = try #require(subsections.first { $0.hasPrefix("Every screen\n") })
        for key in KitKeys.help + [KitKeys.literalNext, KitKeys.interrupt, KitKeys.suspend] + KitKeys.nextField {
            #expect(every.contains("\\fB\(ManPage.escaped(key.label))\\fR"), "\(key.label)")
        }
        #expect(every.contains("\\fB\(ManPage.escaped(keyMap.label(for: .back)))\\fR\nback\n"))
    }

    @Test("FILES names each file where AppPaths keeps it: under XDG, in the home folder without it, and under --data-dir")
    func filesSection() throws {
        let session = CommandLineOptions.ManualPath(\.sessionFile)
        #expect(session.xdg == "$XDG_STATE_HOME/skiff/session.json")
        #expect(session.home == "~/.local/state/skiff/session.json")
        #expect(session.dataDirectory == "DIR/state/session.json")
        #expect(CommandLineOptions.ManualPath(\.builtInServerData).xdg == "$XDG_DATA_HOME/skiff/wallet")
        #expect(CommandLineOptions.ManualPath(\.cacheDatabase).home == "~/.cache/skiff/cache.sqlite")
        #expect(CommandLineOptions.configPaths == ("$XDG_CONFIG_HOME/skiff/config.toml", "~/.config/skiff/config.toml"))

        let roff = CommandLineOptions.manPage.roff
        let files = try #require(roff.components(separatedBy: "\n.SH ").first { $0.hasPrefix("FILES\n") }, "no FILES section")
        let paths: [(AppPaths) -> URL] = [\.sessionFile, \.preferencesFile, \.logFile, \.cacheDatabase, \.builtInServerData]
        for path in paths {
            #expect(files.contains(".TP\n\\fB\(ManPage.escaped(CommandLineOptions.ManualPath(path).xdg))\\fR\n"), "\(CommandLineOptions.ManualPath(path).xdg)")
        }
        #expect(files.contains("\\fB\(ManPage.escaped("$XDG_CONFIG_HOME/skiff/config.toml"))\\fR"))
        for folder in ["~/.local/share/skiff", "~/.local/state/skiff", "~/.cache/skiff", "DIR/data", "DIR/state", "DIR/cache"] {
            #expect(files.contains(ManPage.escaped(folder)), "\(folder)")
        }
        #expect(files.contains(ManPage.escaped("database (skiff.sqlite), SMS outbox (sms-outbox.jsonl)")))
    }
}
