import Foundation
import Testing
@testable import Skiff

@Suite("CommandLineOptions: what skiff's arguments ask for")
struct CommandLineOptionsTests {
    private func options(_ arguments: [String]) throws -> CommandLineOptions {
        guard case .run(let options) = try CommandLineOptions.parse(arguments) else {
            Issue.record("\(arguments) did not ask to run")
            return CommandLineOptions()
        }
        return options
    }

    private func refusal(_ arguments: [String]) -> String? {
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(arguments) }?.description
    }

    @Test("no arguments: the built-in server, the XDG folders, a lock after 300 s, the mouse on")
    func defaults() throws {
        let parsed = try options([])
        #expect(parsed.server == nil)
        #expect(parsed.certificateAuthorityFile == nil)
        #expect(parsed.dataDirectory == nil)
        #expect(parsed.lockAfterSeconds == 300)
        #expect(!parsed.noMouse)
    }

    @Test("every option, as '--name value' and as '--name=value'")
    func everyOption() throws {
        let spaced = try options([
            "--server", "https://wallet.example.com", "--ca-file", "/tmp/ca.pem", "--lock-after", "0",
            "--data-dir", "/tmp/skiff", "--no-mouse",
        ])
        let joined = try options([
            "--server=https://wallet.example.com", "--ca-file=/tmp/ca.pem", "--lock-after=0", "--data-dir=/tmp/skiff",
            "--no-mouse",
        ])
        #expect(spaced == joined)
        #expect(spaced.server == "https://wallet.example.com")
        #expect(spaced.certificateAuthorityFile == "/tmp/ca.pem")
        #expect(spaced.lockAfterSeconds == 0)
        #expect(spaced.dataDirectory == "/tmp/skiff")
        #expect(spaced.noMouse)
    }

    @Test("--help and -h win over anything else; --version prints the version")
    func helpAndVersion() throws {
        #expect(try CommandLineOptions.parse(["--help"]) == .help)
        #expect(try CommandLineOptions.parse(["--bogus", "-h"]) == .help)
        #expect(try CommandLineOptions.parse(["--version"]) == .version)
    }

    @Test("wrong arguments are named in the message", arguments: [
        (["--bogus"], "Unknown option '--bogus'"),
        (["extra"], "Unexpected argument 'extra'"),
        (["--server"], "Missing value for '--server <url>'"),
        (["--data-dir", "--no-mouse"], "Missing value for '--data-dir <path>'"),
        (["--lock-after", "soon"], "The value 'soon' is invalid for '--lock-after <seconds>': a whole number of seconds."),
        (["--lock-after", "-1"], "--lock-after takes a number of seconds, 0 or more."),
        (["--no-mouse=yes"], "'--no-mouse' takes no value"),
        (["--ca-file", "/tmp/ca.pem"], "--ca-file is for an https:// --server; the built-in server needs none."),
        (["--data-dir", ""], "--data-dir needs a folder."),
        (["--generate-completion", "tcsh"], "'--generate-completion <shell>' takes bash, zsh or fish, and no other argument"),
        (["--generate-man", "--no-mouse"], "'--generate-man' takes no value and no other argument"),
    ])
    func refused(arguments: [String], message: String) {
        #expect(refusal(arguments) == message)
    }

    @Test("a plain http:// server off this machine is refused with ServerAddress's reason, without its password")
    func remotePlainHTTP() {
        let message = refusal(["--server", "http://alex:secret@10.0.0.5:8080"])
        #expect(message?.contains("is not on this machine") == true)
        #expect(message?.contains("secret") == false)
    }

    @Test("the help lists every option once, its descriptions within 80 columns, and the usage names each")
    func help() {
        let help = CommandLineOptions.help
        for name in ["--server <url>", "--ca-file <pem>", "--lock-after <seconds>", "--data-dir <path>", "--no-mouse", "--theme <theme>", "--version", "-h, --help"] {
            #expect(help.components(separatedBy: "\n  \(name)").count == 2, "\(name) listed once")
        }
        #expect(help.split(separator: "\n").filter { $0.hasPrefix("  ") }.allSatisfy { $0.count <= 80 })
        #expect(CommandLineOptions.usage == "skiff [--server <url>] [--ca-file <pem>] [--lock-after <seconds>] [--data-dir <path>] [--no-mouse] [--theme <theme>] [--config <path>] [--print-config]")
        let message = CommandLineOptions.usageMessage(for: .init(description: "Unknown option '--bogus'"))
        #expect(message == "Error: Unknown option '--bogus'\nUsage: \(CommandLineOptions.usage)\n  See 'skiff --help' for more information.\n")
    }

    @Test("the help lists --generate-man and --generate-completion <shell>, one line each, with what they print")
    func helpListsGenerators() throws {
        let lines = CommandLineOptions.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let man = try #require(lines.firstIndex { $0.hasPrefix("  --generate-man ") }, "\(CommandLineOptions.help)")
        #expect(lines[man].contains("Print the skiff(1) man page (roff) and exit."))
        // Too long for the first column: its help is the one line under it.
        let completion = try #require(lines.firstIndex(of: "  --generate-completion <shell>"), "\(CommandLineOptions.help)")
        #expect(lines[completion + 1].trimmingCharacters(in: .whitespaces) == "Print the bash, zsh or fish completions and exit.")
        #expect(!lines[completion + 2].hasPrefix("                          "), "one line of help")
        // What the help lists is what runs.
        #expect(CommandLineOptions.generated(for: ["--generate-man"]) == CommandLineOptions.manPage.roff)
        for shell in ["bash", "zsh", "fish"] {
            #expect(CommandLineOptions.generated(for: ["--generate-completion", shell]) == CommandLineOptions.completion(for: shell))
        }
    }
}
