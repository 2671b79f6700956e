import Foundation
import SkiffConfigFile
import Testing
@testable import Skiff

/// skiff(1) and the completions are written from the options table: each lists exactly the table's options.
@Suite("skiff's man page and completions, from its options table")
struct CommandLineOptionsManualTests {
    /// Every option the help offers: the table's, the generators and `--version`, `-h`, `--help`.
    let expected = Set(CommandLineOptions.options.map(\.name) + ["--generate-man", "--generate-completion", "--version", "-h", "--help"])

    /// The `--long` and `-h` options named in `text` by `pattern`'s first group.
    private func names(in text: String, _ pattern: String) throws -> Set<String> {
        let regex = try Regex(pattern)
        return Set(text.matches(of: regex).compactMap { match in match.output[1].substring.map(String.init) })
    }

    @Test("the man page lists exactly the table's options, in OPTIONS, each with its help")
    func manPage() throws {
        let page = CommandLineOptions.manPage
        #expect(Set(page.optionNames.filter { $0.hasPrefix("-") }) == expected)
        let roff = page.roff
        let listed = try names(in: roff, #"\\fB((?:\\-)+[a-z\\-]+)\\fR"#).map { $0.replacingOccurrences(of: "\\-", with: "-") }
        #expect(Set(listed) == expected)
        #expect(roff.hasPrefix(".TH \"SKIFF\" 1 "))
        for option in CommandLineOptions.options {
            #expect(roff.contains(ManPage.escaped(option.help)), "\(option.name)")
        }
        // Every command of the key map, by its setting name.
        for command in SceneCommand.allCases {
            #expect(roff.contains("\\fB\(ManPage.escaped(command.settingName))\\fR"), "\(command)")
        }
    }

    @Test("bash completes exactly the table's options, and files or folders after the options that take them")
    func bash() throws {
        let script = try #require(CommandLineOptions.completion(for: "bash"))
        // The last word list: the options (the one before it is --generate-completion's shells).
        let words = try #require(script.matches(of: try Regex(#"compgen -W "([^"]*)""#)).last?.output[1].substring)
        #expect(Set(words.split(separator: " ").map(String.init)) == expected)
        #expect(script.contains("--ca-file|--config) COMPREPLY=($(compgen -f"))
        #expect(script.contains("--data-dir) COMPREPLY=($(compgen -d"))
        #expect(script.contains("--generate-completion) COMPREPLY=($(compgen -W \"bash zsh fish\""))
        #expect(script.hasSuffix("complete -F _skiff skiff\n"))
    }

    @Test("zsh and fish offer exactly the table's options")
    func zshAndFish() throws {
        let zsh = try #require(CommandLineOptions.completion(for: "zsh"))
        #expect(zsh.hasPrefix("#compdef skiff\n"))
        var zshNames = try names(in: zsh, #"'(?:\(- \*\))?(--[a-z-]+)\["#)
        if zsh.contains("{-h,--help}") { zshNames.formUnion(["-h", "--help"]) }
        #expect(zshNames == expected)

        let fish = try #require(CommandLineOptions.completion(for: "fish"))
        let longs = try names(in: fish, #"-l ([a-z-]+)"#).map { "--" + $0 }
        let shorts = try names(in: fish, #"-s ([a-z])"#).map { "-" + $0 }
        #expect(Set(longs + shorts) == expected)
    }

    @Test("only the generator arguments, exactly, generate")
    func generatedArguments() {
        #expect(CommandLineOptions.generated(for: ["--generate-man"])?.hasPrefix(".TH") == true)
        #expect(CommandLineOptions.generated(for: ["--generate-completion", "fish"])?.contains("complete -c skiff") == true)
        #expect(CommandLineOptions.generated(for: ["--generate-completion", "tcsh"]) == nil)
        #expect(CommandLineOptions.generated(for: ["--generate-man", "--no-mouse"]) == nil)
        #expect(CommandLineOptions.generated(for: []) == nil)
        #expect(CommandLineOptions.generated(for: ["--data-dir", "/tmp"]) == nil)
        // An ordinary start looks no further than this prefix: a generator named otherwise would never run.
        for generator in CommandLineOptions.generators {
            #expect(generator.name.hasPrefix(CommandLineOptions.Generator.namePrefix), "\(generator.name)")
        }
    }

    @Test("the man page is valid roff: man reads it without a warning", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func roffIsClean() throws {
        let file = NSTemporaryDirectory() + "skiff-\(UUID().uuidString).1"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(CommandLineOptions.manPage.roff.utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        process.arguments = ["--warnings", "-E", "UTF-8", "-l", file]
        process.environment = ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(text.contains("--print-config"))
    }
}
