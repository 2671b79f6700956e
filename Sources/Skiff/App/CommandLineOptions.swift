import SkiffConfigFile
import TerminalUI

/// What `skiff` was started with: its options, read by hand from the arguments and from
/// `$XDG_CONFIG_HOME/skiff/config.toml`, and its help, man page and completions, all made from the one table of
/// options below (docs/decisions/0159-configuration-files.md).
///
/// Not swift-argument-parser: its reflection over the command's property wrappers made the runtime scan all 12,000
/// protocol conformance records of the static executable dozens of times, about 12 ms of every start (docs/decisions/0104-skiff-reads-its-own-arguments.md).
public struct CommandLineOptions: Equatable, Sendable {
    /// `--server`: use this server instead of starting one.
    public var server: String?
    /// `--ca-file`: also trust this certificate authority for an https:// server.
    public var certificateAuthorityFile: String?
    /// `--lock-after`: lock after this many seconds without a key; 0 never locks.
    public var lockAfterSeconds = CommandLineOptions.defaultLockAfterSeconds
    /// `--data-dir`: keep every file under this folder instead of the XDG directories.
    public var dataDirectory: String?
    /// `--no-mouse` (or `mouse = false`): leave the mouse to the terminal.
    public var noMouse = false
    /// `--theme` (or `theme = "monochrome"`): the terminal's palette, colour even under NO_COLOR, or none.
    public var theme: ThemeChoice = .auto
    /// `--config`: the configuration file to read instead of `$XDG_CONFIG_HOME/skiff/config.toml`.
    public var configFile: String?
    /// Whether `configFile` was there and read.
    var configFileFound = false
    /// The `[keys]` table: commands given other keys than the standard map's.
    var keyOverrides: [SceneCommand: [Key]] = [:]
    /// Where each setting's value came from, by its name in the file; absent: the default.
    var sources: [String: SettingSource] = [:]

    public static let defaultLockAfterSeconds = 300

    public init() {}

    /// The wallet's key map with the `[keys]` overrides applied.
    var keys: WalletKeys { WalletKeys.standard(overriding: keyOverrides) }

    /// What the arguments ask for.
    public enum Request: Equatable, Sendable {
        case run(CommandLineOptions)
        /// `--print-config`: show each setting and where it came from.
        case printConfig(CommandLineOptions)
        case help
        case version
    }

    /// Arguments that cannot be run, with what to say (followed by the usage).
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Where a setting's value came from, from the weakest to the strongest.
    enum SettingSource: Equatable, Sendable, CustomStringConvertible {
        case file(path: String, line: Int)
        case environment(String)
        case commandLine(String)

        var description: String {
            switch self {
            case .file(let path, let line): line > 0 ? "\(path) line \(line)" : path
            case .environment(let variable): "environment \(variable)"
            case .commandLine(let name): "command line \(name)"
            }
        }
    }

    /// What an option takes.
    enum Value: Sendable, Equatable {
        /// A text: the help's placeholder, and how completions offer it.
        case text(String, Completion)
        /// A whole number.
        case number(String)
        /// Nothing: a flag.
        case flag

        var placeholder: String? {
            switch self {
            case .text(let name, _), .number(let name): name
            case .flag: nil
            }
        }
    }

    /// What a shell offers for an option's value.
    enum Completion: Sendable, Equatable {
        case none, file, directory
    }

    /// One option of the table the parser, the configuration file, the help, the man page and the completions
    /// are made from.
    struct Option: Sendable {
        let name: String
        let value: Value
        let help: String
        /// Its name in config.toml: the long name with underscores; nil: command line only.
        let setting: String?
        /// A flag whose setting says the opposite (`--no-mouse` is `mouse = false`).
        var settingInverts = false
        /// Sets the option; a flag gets "true" when it is on, "false" when a file turns it off.
        let apply: @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void
        /// Its current value as config.toml writes it; nil when unset.
        let current: @Sendable (CommandLineOptions) -> ConfigValue?

        var synopsis: String { name + (value.placeholder.map { " <\($0)>" } ?? "") }
    }

    static let options: [Option] = [
        Option(
            name: "--server", value: .text("url", .none),
            help: "Use this server instead of starting one: https://host[:port], or http:// on this machine only.",
            setting: "server",
            apply: { options, value throws(UsageError) in
                do throws(ServerAddress.Refusal) {
                    _ = try ServerAddress(parsing: value)
                } catch {
                    throw UsageError(description: error.description)
                }
                options.server = value
            },
            current: { $0.server.map(ConfigValue.string) }
        ),
        Option(
            name: "--ca-file", value: .text("pem", .file),
            help: "Also trust this certificate authority (PEM) for an https:// --server.", setting: "ca_file",
            apply: { options, value in options.certificateAuthorityFile = value },
            current: { $0.certificateAuthorityFile.map(ConfigValue.string) }
        ),
        Option(
            name: "--lock-after", value: .number("seconds"),
            help: "Lock after this many seconds without a key (0: never). (default: \(defaultLockAfterSeconds))",
            setting: "lock_after",
            apply: { options, value throws(UsageError) in
                guard let seconds = Int(value) else {
                    throw UsageError(description: "The value '\(value)' is invalid for '--lock-after <seconds>': a whole number of seconds.")
                }
                options.lockAfterSeconds = seconds
            },
            current: { .integer($0.lockAfterSeconds) }
        ),
        Option(
            name: "--data-dir", value: .text("path", .directory),
            help: "Keep every file under this folder instead of the XDG directories.", setting: "data_dir",
            apply: { options, value in options.dataDirectory = value }, current: { $0.dataDirectory.map(ConfigValue.string) }
        ),
        Option(
            name: "--no-mouse", value: .flag,
            help: "Leave the mouse to the terminal (also SKIFF_NO_MOUSE=1, or mouse = false in the file); Shift-drag selects text either way in most terminals.",
            setting: "mouse", settingInverts: true,
            apply: { options, value in options.noMouse = value == "true" }, current: { .boolean(!$0.noMouse) }
        ),
        Option(
            name: "--theme", value: .text("theme", .none),
            help: "auto (colour when the terminal has it and NO_COLOR is unset), color (even under NO_COLOR) or monochrome. (default: auto)",
            setting: "theme",
            apply: { options, value throws(UsageError) in
                guard let theme = ThemeChoice(rawValue: value) else {
                    let choices = ThemeChoice.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(description: "The value '\(value)' is invalid for '--theme <theme>': one of \(choices).")
                }
                options.theme = theme
            },
            current: { .string($0.theme.rawValue) }
        ),
        Option(
            name: "--config", value: .text("path", .file),
            help: "Read this configuration file instead of $XDG_CONFIG_HOME/skiff/config.toml (~/.config/skiff/config.toml).",
            setting: nil, apply: { options, value in options.configFile = value }, current: { $0.configFile.map(ConfigValue.string) }
        ),
        Option(
            name: "--print-config", value: .flag,
            help: "Print each setting, as config.toml would write it, and where its value came from; then exit.",
            setting: nil, apply: { _, _ in }, current: { _ in nil }
        ),
    ]

    /// The options every program answers, outside the table: shown by the help, the man page and the completions.
    static let standardOptions: [(names: [String], help: String)] = [
        (["--version"], "Show the version and the commit it was built from."),
        (["-h", "--help"], "Show help information."),
    ]

    // MARK: Reading the arguments

    /// Reads `arguments` (without the program's name) alone, without a configuration file.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        if let early = earlyRequest(arguments) { return early }
        var result = CommandLineOptions()
        for (option, value) in try scan(arguments) {
            try option.apply(&result, value)
            if let setting = option.setting { result.sources[setting] = .commandLine(option.name) }
        }
        try result.validate()
        return arguments.contains("--print-config") ? .printConfig(result) : .run(result)
    }

    /// `-h` / `--help` and `--version` win over anything else.
    static func earlyRequest(_ arguments: [String]) -> Request? {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        if arguments.contains("--version") { return .version }
        return nil
    }

    /// The options given, in order, each with its value ("true" for a flag): `--name value`, `--name=value`.
    static func scan(_ arguments: [String]) throws(UsageError) -> [(Option, String)] {
        var given: [(Option, String)] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let (name, attached) = split(argument)
            guard name.hasPrefix("-") else {
                throw UsageError(description: "Unexpected argument '\(argument)'")
            }
            guard let option = options.first(where: { $0.name == name }) else {
                if let generator = generators.first(where: { $0.name == name }) { throw generatorMisuse(generator) }
                throw UsageError(description: "Unknown option '\(name)'")
            }
            guard let valueName = option.value.placeholder else {
                if attached != nil {
                    throw UsageError(description: "'\(name)' takes no value")
                }
                given.append((option, "true"))
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.endIndex, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(description: "Missing value for '\(name) <\(valueName)>'")
            }
            given.append((option, value))
        }
        return given
    }

    /// `--name=value` as its two parts; other arguments whole.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The rules between options and on their values.
    func validate() throws(UsageError) {
        if lockAfterSeconds < 0 {
            throw UsageError(description: "--lock-after takes a number of seconds, 0 or more.")
        }
        if certificateAuthorityFile != nil, server == nil {
            throw UsageError(description: "--ca-file is for an https:// --server; the built-in server needs none.")
        }
        if let dataDirectory, dataDirectory.isEmpty {
            throw UsageError(description: "--data-dir needs a folder.")
        }
    }

    // MARK: Help

    /// The one-line usage.
    public static var usage: String {
        "skiff " + options.map { "[" + $0.synopsis + "]" }.joined(separator: " ")
    }

    /// What skiff is, for the help and the man page.
    static let overview = "A keyboard-driven terminal wallet."

    /// Where skiff keeps its files, for the help and the man page.
    static var filesDescription: String {
        "Without --server, Skiff starts its own server on 127.0.0.1 (a free port) with its database under "
            + "\(ManualPath(\.builtInServerData).xdg), seeded with a demo account on first run. The session and the log are "
            + "kept under \(ManualPath(\.state).xdg), the Home cache under \(ManualPath(\.cache).xdg)."
    }

    /// What `--help` prints.
    public static var help: String {
        let rows = options.map { ($0.synopsis, $0.help) }
            + generators.map { ($0.synopsis, $0.help) }
            + standardOptions.map { ($0.names.joined(separator: ", "), $0.help) }
        let column = 26
        var text = """
            OVERVIEW: \(overview)

            \(wrap(filesDescription, width: 80, indent: 0))

            USAGE: \(usage)

            OPTIONS:

            """
        for (label, help) in rows {
            let start = "  " + label
            let body = wrap(help, width: 80, indent: column)
            if start.count + 2 > column {
                text += start + "\n" + String(repeating: " ", count: column) + body + "\n"
            } else {
                text += start + String(repeating: " ", count: column - start.count) + body + "\n"
            }
        }
        return text
    }

    /// What a usage error prints: the error, the usage and where to read more.
    public static func usageMessage(for error: UsageError) -> String {
        "Error: \(error.description)\nUsage: \(usage)\n  See 'skiff --help' for more information.\n"
    }

    /// `text` broken into lines of at most `width` columns; lines after the first are indented by `indent`.
    static func wrap(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width - indent {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
