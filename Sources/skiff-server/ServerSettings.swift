import ArgumentParser
import Foundation
import SkiffConfigFile
import SkiffCore

/// skiff-server's configuration file (`/etc/skiff/server.toml`, or `--config PATH`) and environment, read against
/// its options table, which is its swift-argument-parser declarations (read back through the parser's own help
/// dump, so no option is written twice): the command line wins over the environment (`SKIFF_` and the option's
/// name, `SKIFF_DATABASE_URL` for `--database`), the environment over the file, the file over the defaults.
enum ServerSettings {
    /// Read when it exists; `--config` names another, which must exist.
    static let defaultPath = "/etc/skiff/server.toml"

    /// Environment variables that are not `SKIFF_` and the option's setting name.
    static let renamedVariables = ["database": "SKIFF_DATABASE_URL"]

    /// Options that only the command line gives.
    static let commandLineOnly: Set<String> = ["config", "help", "version"]

    /// Arguments after which nothing is read from a file: the parser answers them itself.
    static let parserAnswers: Set<String> = ["-h", "--help", "help", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// The command tree and its options, as the parser describes them.
    static let tool: CommandInfo = {
        // The dump is the parser's own; a failure to decode it is a bug in this file, caught by its tests.
        (try? JSONDecoder().decode(ToolInfo.self, from: Data(SkiffServerCommand._dumpHelp().utf8)).command)
            ?? CommandInfo(commandName: "skiff-server")
    }()

    /// What a file or the environment may set: the options of the default command, `serve` (which has every command's
    /// storage options too). The seeders' own options (a phone number, a count) are for the command line alone.
    static var settable: [ConfigArguments.Option] {
        settableOptions(of: (tool.subcommands ?? []).first { $0.commandName == tool.defaultSubcommand } ?? tool)
    }

    /// The long options of `command` a file or the environment may set.
    static func settableOptions(of command: CommandInfo) -> [ConfigArguments.Option] {
        (command.arguments ?? []).compactMap { argument in
            guard let long = argument.longName, !commandLineOnly.contains(long), argument.kind != "positional" else { return nil }
            let kind: ConfigArguments.Option.Kind = argument.kind == "flag" ? .flag : (argument.isRepeating ? .repeating : .value)
            return ConfigArguments.Option(name: long, kind: kind, valueName: argument.valueName)
        }
    }

    /// The arguments to parse: `commandLine` with the file's and the environment's settings for its command put
    /// before its own, and where each came from.
    static func arguments(
        _ commandLine: [String], environment: [String: String], fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) throws(ConfigFileError) -> (arguments: [String], sources: [String: ConfigArguments.Source]) {
        if commandLine.contains(where: parserAnswers.contains) { return (commandLine, [:]) }
        let subcommands = tool.subcommands ?? []
        let named = commandLine.first.flatMap { first in subcommands.first { $0.commandName == first } }
        let command = named ?? subcommands.first { $0.commandName == tool.defaultSubcommand } ?? tool
        let rest = named == nil ? commandLine : Array(commandLine.dropFirst())

        let explicitPath = configPath(in: rest)
        let path = explicitPath ?? defaultPath
        var file: ConfigFile?
        if fileExists(path) {
            file = try ConfigFile.read(path: path, ownerWritesOnly: true)
        } else if explicitPath != nil {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "does not exist (given with --config)")
        }
        let known = settable
        let made = try ConfigArguments.make(
            commandLine: rest, options: settableOptions(of: command).filter(known.contains), known: known, file: file,
            environment: environment,
            renamedVariables: renamedVariables
        )
        return ([command.commandName] + made.arguments + rest, made.sources)
    }

    /// `--config PATH` or `--config=PATH`, the last one given.
    static func configPath(in arguments: [String]) -> String? {
        var path: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { path = arguments[index + 1] }
            if argument.hasPrefix("--config=") { path = String(argument.dropFirst("--config=".count)) }
        }
        return path
    }

    /// A parser's refusal of a value that came from the file or the environment, with where it came from.
    static func note(for message: String, sources: [String: ConfigArguments.Source]) -> String? {
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) where message.contains("--\(name)") {
            return "The value of --\(name) came from \(source) (\(name.replacingOccurrences(of: "-", with: "_")))."
        }
        return nil
    }

    // MARK: The parser's description of the commands (its --experimental-dump-help, ToolInfoV0)

    struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    struct CommandInfo: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var defaultSubcommand: String?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?

        init(commandName: String) {
            self.commandName = commandName
        }
    }

    struct ArgumentInfo: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var names: [Name]?
        var isRepeating: Bool
        var valueName: String?
        var abstract: String?
        var discussion: String?
        var defaultValue: String?
        var shouldDisplay: Bool

        var longName: String? { names?.first { $0.kind == "long" }?.name }
        /// `--port`, `-h`, as the help writes them.
        var spelled: [String] {
            (names ?? []).map { ($0.kind == "long" ? "--" : "-") + $0.name }
        }
    }
}
