import SkiffConfigFile
import SkiffCore

/// skiff-server(1), written from the parser's own description of the commands (`skiff-server --generate-man`):
/// the same options, names and help as `--help` and the completions.
enum ServerManual {
    static var page: ManPage {
        let tool = ServerSettings.tool
        // The parser's own `help` command is left out: `--help` says the same.
        let subcommands = (tool.subcommands ?? []).filter { $0.commandName != "help" }
        var commands: [ManPage.Block] = []
        for command in subcommands {
            commands.append(.subsection("skiff-server \(command.commandName)" + (command.commandName == tool.defaultSubcommand ? " (the default)" : "")))
            commands.append(.paragraph(([command.abstract, command.discussion].compactMap { $0 }).joined(separator: " ")))
            commands.append(.options(entries(of: command)))
        }
        let environment = ServerSettings.settable.map { option in
            ManPage.Entry(
                names: [ConfigArguments.environmentVariable(for: option, renamed: ServerSettings.renamedVariables)], valueName: nil,
                help: "As --\(option.name)" + (option.kind == .flag ? " (1 or true: on)." : option.kind == .repeating ? " (values separated by commas)." : ".")
            )
        }
        return ManPage(
            name: "skiff-server", version: SkiffVersion.number, summary: tool.abstract ?? "",
            synopsis: ["[\(subcommands.map(\.commandName).joined(separator: " | "))] [options]", "--version | --help"],
            sections: [
                ("Description", [.paragraph((tool.abstract ?? "") + " Without a command it runs serve.")]),
                ("Options", [.options(entries(of: tool))]),
                ("Commands", commands),
                ("Files", [
                    .paragraph("\(ServerSettings.defaultPath): the settings, read when the file exists (another with --config). "
                        + "Its keys are the long options' names with underscores, for the options of serve (migrate and the seeders take "
                        + "the storage ones among them); a repeating option takes an array. "
                        + "A file with a mistake (not TOML, an unknown key, a value of the wrong type) is refused at start with its line and key. "
                        + "The command line wins over the environment, the environment over the file, the file over the defaults."),
                    .example(exampleFile),
                ]),
                ("Environment", [.options(environment)]),
                ("Exit status", [.paragraph("0 on success, 64 for a usage error, 78 for a configuration file or variable that cannot be used, 1 otherwise.")]),
                ("See also", [.paragraph("skiff(1)")]),
            ]
        )
    }

    /// An example server.toml.
    static let exampleFile = """
        host = "127.0.0.1"
        port = 8080
        database = "/var/lib/skiff/skiff.sqlite"
        key_file = "/etc/skiff/server.key"
        log_format = "json"
        trusted_proxy = ["127.0.0.1"]
        """

    /// The options of `command` that its help shows.
    static func entries(of command: ServerSettings.CommandInfo) -> [ManPage.Entry] {
        (command.arguments ?? []).filter { $0.shouldDisplay && $0.kind != "positional" }.map { argument in
            var help = [argument.abstract, argument.discussion].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            if let value = argument.defaultValue, !value.isEmpty, argument.kind != "flag" { help += " (default: \(value))" }
            return ManPage.Entry(names: argument.spelled, valueName: argument.kind == "flag" ? nil : argument.valueName, help: help)
        }
    }
}
