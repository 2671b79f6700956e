import Foundation
import SkiffConfigFile
import SkiffCore
import TerminalUI

/// skiff(1) and skiff's bash, zsh and fish completions, written from the one table of options
/// (`skiff --generate-man`, `skiff --generate-completion SHELL`). The generators are not options of the table (they
/// take no setting and run nothing), but the help, the man page and the completions list them as they list the table's.
extension CommandLineOptions {
    /// An argument that prints something made from the tables and exits: `--generate-man`, `--generate-completion`.
    struct Generator: Sendable {
        let name: String
        /// The value it takes, and the values it accepts; nil: none.
        let value: (placeholder: String, choices: [String])?
        let help: String
        /// The text for the value given (nil when it takes none), or nil for a value it does not accept.
        let generate: @Sendable (String?) -> String?

        var synopsis: String { name + (value.map { " <\($0.placeholder)>" } ?? "") }

        /// How every generator's name begins: an ordinary start looks no further (building the table's help costs a
        /// scan of the program's protocol conformances, ~0.5 ms before the first frame).
        static let namePrefix = "--generate-"
    }

    /// The shells `--generate-completion` writes for.
    static let completionShells = ["bash", "zsh", "fish"]

    /// The generators, in the order the help lists them.
    static let generators: [Generator] = [
        Generator(
            name: "--generate-man", value: nil, help: "Print the skiff(1) man page (roff) and exit.",
            generate: { _ in manPage.roff }
        ),
        Generator(
            name: "--generate-completion", value: ("shell", completionShells),
            help: "Print the \(choices(completionShells)) completions and exit.",
            generate: { shell in shell.flatMap(completion(for:)) }
        ),
    ]

    /// The arguments that print the man page or a completion script: the text, or nil for any others (a generator
    /// with anything else, or a value it does not take, is refused by the parser, `generatorMisuse`).
    public static func generated(for arguments: [String]) -> String? {
        guard let first = arguments.first, first.hasPrefix(Generator.namePrefix),
            let generator = generators.first(where: { $0.name == first })
        else { return nil }
        switch (generator.value, arguments.count) {
        case (nil, 1): return generator.generate(nil)
        case (.some, 2): return generator.generate(arguments[1])
        default: return nil
        }
    }

    /// Why a generator's argument cannot be used as it was given: it goes alone, with one value it accepts.
    static func generatorMisuse(_ generator: Generator) -> UsageError {
        guard let value = generator.value else {
            return UsageError(description: "'\(generator.name)' takes no value and no other argument")
        }
        return UsageError(
            description: "'\(generator.synopsis)' takes \(choices(value.choices)), and no other argument"
        )
    }

    /// "bash, zsh or fish".
    static func choices(_ values: [String], joinedBy word: String = "or") -> String {
        values.count < 2 ? values.joined() : values.dropLast().joined(separator: ", ") + " \(word) " + values[values.count - 1]
    }

    static var manPage: ManPage {
        let keys = WalletKeys.standard
        let commands = SceneCommand.allCases.map { command in
            ManPage.Entry(
                names: [command.settingName], valueName: nil,
                help: "\(keys.entry(for: command).help) (default: \(keys.label(for: command)))"
            )
        }
        return ManPage(
            name: "skiff", version: SkiffVersion.number, summary: overview.hasSuffix(".") ? String(overview.dropLast()) : overview,
            synopsis: [options.map { "[" + $0.synopsis + "]" }.joined(separator: " ")],
            sections: [
                ("Description", [.paragraph(filesDescription)]),
                ("Options", [
                    .options(options.map { ManPage.Entry(names: [$0.name], valueName: $0.value.placeholder, help: $0.help) }
                        + generators.map { ManPage.Entry(names: [$0.name], valueName: $0.value?.placeholder, help: $0.help) }
                        + standardOptions.map { ManPage.Entry(names: $0.names, valueName: nil, help: $0.help) }),
                ]),
                ("Configuration", [
                    .paragraph("$XDG_CONFIG_HOME/skiff/config.toml (~/.config/skiff/config.toml), or the file --config names. "
                        + "Its keys are the long options' names with underscores: "
                        + options.compactMap { option in option.setting.map { "\($0) (\(expectation(for: option)))" } }.joined(separator: ", ")
                        + "; mouse = false is --no-mouse. The command line wins over the environment, the environment over the file, "
                        + "the file over the defaults; --print-config shows each value and where it came from. A file with a mistake "
                        + "(not TOML, an unknown key, a value of the wrong type, a key bound to two commands) is refused at start with its line and key."),
                    .paragraph("The [\(keysTable)] table gives commands other keys: \(keyExpectation). The commands and their keys:"),
                    .options(commands),
                    .paragraph("For example:"),
                    .example(exampleConfiguration),
                ]),
                ("Keys", keysSection),
                ("Files", filesSection),
                ("Environment", [
                    .options([
                        ManPage.Entry(names: ["SKIFF_NO_MOUSE"], valueName: nil, help: "Anything but empty or 0: as --no-mouse."),
                        ManPage.Entry(names: ["SKIFF_LOG_LEVEL"], valueName: nil, help: "The log's level (trace, debug, info, notice, warning, error, critical)."),
                        ManPage.Entry(names: ["NO_COLOR"], valueName: nil, help: "Set: no colours."),
                        ManPage.Entry(names: ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"], valueName: nil, help: "Where the files are kept."),
                    ]),
                ]),
                ("Exit status", [.paragraph("0 when quit, 64 for a usage error, 78 for a configuration file that cannot be used, 1 otherwise.")]),
                ("See also", [.paragraph("skiff-server(1)")]),
            ]
        )
    }

    /// A file or folder of `AppPaths` as the man page names it, each spelling made by `AppPaths` itself: under its XDG
    /// variable (`$XDG_STATE_HOME/skiff/session.json`), under the fallback in the home folder
    /// (`~/.local/state/skiff/session.json`), and under `--data-dir DIR` (`DIR/state/session.json`).
    struct ManualPath: Equatable {
        var xdg: String
        var home: String
        var dataDirectory: String

        init(_ file: (AppPaths) -> URL) {
            let variables = ["XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"]
            // Each variable stands for itself: an absolute path named after it, its leading "/" a "$" once made.
            let named = AppPaths.standard(environment: Dictionary(uniqueKeysWithValues: variables.map { ($0, "/" + $0) }))
            xdg = "$" + file(named).path.dropFirst()
            home = String(file(AppPaths.standard(environment: ["HOME": "/~"])).path.dropFirst())
            dataDirectory = String(file(AppPaths.rooted(at: URL(fileURLWithPath: "/DIR"))).path.dropFirst())
        }
    }

    /// The configuration file's path under `$XDG_CONFIG_HOME`, and in the home folder without it
    /// (`defaultConfigPath`'s own spellings).
    static var configPaths: (xdg: String, home: String) {
        ("$" + defaultConfigPath(environment: ["XDG_CONFIG_HOME": "/XDG_CONFIG_HOME"]).dropFirst(),
         defaultConfigPath(environment: ["HOME": "~"]))
    }

    /// The FILES section: where each file skiff keeps is, and what it holds.
    static var filesSection: [ManPage.Block] {
        let folders = [ManualPath(\.data), ManualPath(\.state), ManualPath(\.cache)]
        let config = configPaths
        func file(_ path: (AppPaths) -> URL, _ help: String) -> ManPage.Entry {
            ManPage.Entry(names: [ManualPath(path).xdg], valueName: nil, help: help)
        }
        let server = ManualPath(\.builtInServerData)
        let serverFiles = [ManualPath(\.serverDatabase), ManualPath(\.smsOutbox)].map {
            String($0.xdg.dropFirst(server.xdg.count + 1))
        }
        return [
            .paragraph("Skiff keeps its files in "
                + choices(folders.map { "\($0.xdg) (else \($0.home))" }, joinedBy: "and")
                + "; with --data-dir DIR, in " + choices(folders.map(\.dataDirectory), joinedBy: "and")
                + " instead. Every file it writes there is the owner's alone (mode 0600) from its first byte, and the folders "
                + "are 0700: one of yours that others may enter is tightened at start with a notice in the log; one of "
                + "someone else's is refused."),
            .options([
                ManPage.Entry(
                    names: [config.xdg], valueName: nil,
                    help: "The configuration file (else \(config.home)), read when it exists; --config names another."
                ),
                file(\.sessionFile, "The session (its token), removed on log-out or when the server ends the session; "
                    + "marked locked before Lock is drawn, so a start after a lock shows Lock."),
                file(\.preferencesFile, "The last phone number used, never a password."),
                file(\.logFile, "The log (SKIFF_LOG_LEVEL sets its level). Nothing is logged to the screen, and no "
                    + "password, token, card number, CVC or code is logged at all."),
                file(\.cacheDatabase, "The last Home, so that Home draws at once and still reads offline, saying since when."),
                file(\.builtInServerData, "The built-in server's folder (without --server): its database ("
                    + serverFiles.joined(separator: "), SMS outbox (") + ") and server key."),
            ]),
        ]
    }

    /// Every option a completion offers: the table's, the generators and the standard ones.
    static var completedOptions: [String] {
        options.map(\.name) + generators.map(\.name) + standardOptions.flatMap(\.names)
    }

    /// The completion script for `shell` (bash, zsh or fish), or nil for another shell.
    static func completion(for shell: String) -> String? {
        switch shell {
        case "bash": bashCompletion
        case "zsh": zshCompletion
        case "fish": fishCompletion
        default: nil
        }
    }

    private static let generatedNote = "generated by `skiff --generate-completion` from skiff's options table"

    private static var bashCompletion: String {
        func names(_ completion: Completion) -> String {
            options.filter { $0.value == .text($0.value.placeholder ?? "", completion) }.map(\.name).joined(separator: "|")
        }
        let plain = options.filter { option in
            switch option.value {
            case .number, .text(_, .none): true
            default: false
            }
        }.map(\.name).joined(separator: "|")
        let generatorValues = generators.compactMap { generator in
            generator.value.map { "\(generator.name)) COMPREPLY=($(compgen -W \"\($0.choices.joined(separator: " "))\" -- \"$cur\")); return ;;" }
        }
        return """
            # bash completion for skiff, \(generatedNote).
            _skiff() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                case "$prev" in
                    \(names(.file))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                    \(names(.directory))) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                    \(plain)) COMPREPLY=(); return ;;
                    \(generatorValues.joined(separator: "\n        "))
                esac
                COMPREPLY=($(compgen -W "\(completedOptions.joined(separator: " "))" -- "$cur"))
            }
            complete -F _skiff skiff

            """
    }

    private static var zshCompletion: String {
        func escaped(_ help: String) -> String {
            help.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
                .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
        }
        var specs = options.map { option -> String in
            let action: String
            switch option.value {
            case .flag: action = ""
            case .number(let placeholder), .text(let placeholder, .none): action = ":\(placeholder):"
            case .text(let placeholder, .file): action = ":\(placeholder):_files"
            case .text(let placeholder, .directory): action = ":\(placeholder):_directories"
            }
            return "'\(option.name)[\(escaped(option.help))]\(action)'"
        }
        specs += generators.map { generator in
            let action = generator.value.map { ":\($0.placeholder):(\($0.choices.joined(separator: " ")))" } ?? ""
            return "'(- *)\(generator.name)[\(escaped(generator.help))]\(action)'"
        }
        specs += standardOptions.map { names, help in
            names.count == 1 ? "'(- *)\(names[0])[\(escaped(help))]'" : "'(- *)'{\(names.joined(separator: ","))}'[\(escaped(help))]'"
        }
        return "#compdef skiff\n# zsh completion for skiff, \(generatedNote).\n_arguments -s \\\n    "
            + specs.joined(separator: " \\\n    ") + "\n"
    }

    private static var fishCompletion: String {
        func escaped(_ help: String) -> String {
            help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        }
        var lines = ["# fish completion for skiff, \(generatedNote).", "complete -c skiff -f"]
        for option in options {
            var line = "complete -c skiff -l \(option.name.dropFirst(2))"
            switch option.value {
            case .flag: break
            case .number, .text(_, .none): line += " -x"
            case .text(_, .file): line += " -r -F"
            case .text(_, .directory): line += " -x -a '(__fish_complete_directories)'"
            }
            lines.append(line + " -d '\(escaped(option.help))'")
        }
        for generator in generators {
            let values = generator.value.map { " -x -a '\($0.choices.joined(separator: " "))'" } ?? ""
            lines.append("complete -c skiff -l \(generator.name.dropFirst(2))\(values) -d '\(escaped(generator.help))'")
        }
        for (names, help) in standardOptions {
            let flags = names.map { $0.hasPrefix("--") ? "-l \($0.dropFirst(2))" : "-s \($0.dropFirst())" }.joined(separator: " ")
            lines.append("complete -c skiff \(flags) -d '\(escaped(help))'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
