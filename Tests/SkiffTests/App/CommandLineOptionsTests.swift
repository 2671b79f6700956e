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
}
