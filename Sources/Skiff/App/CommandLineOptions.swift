/// What `skiff` was started with: its options, read by hand from the arguments, and its help and usage text, made
/// from the same table of options.
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
    /// `--no-mouse`: leave the mouse to the terminal.
    public var noMouse = false

    public static let defaultLockAfterSeconds = 300

    public init() {}

    /// What the arguments ask for.
    public enum Request: Equatable, Sendable {
        case run(CommandLineOptions)
        case help
        case version
    }

    /// Arguments that cannot be run, with what to say (followed by the usage).
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// One option of the table the parser and the help text are made from.
    struct Option: Sendable {
        let name: String
        /// The value's placeholder in the help; nil for a flag.
        let valueName: String?
        let help: String
        let apply: @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void
    }

    static let options: [Option] = [
        Option(
            name: "--server", valueName: "url",
            help: "Use this server instead of starting one: https://host[:port], or http:// on this machine only."
        ) { options, value in options.server = value },
        Option(
            name: "--ca-file", valueName: "pem", help: "Also trust this certificate authority (PEM) for an https:// --server."
        ) { options, value in options.certificateAuthorityFile = value },
        Option(
            name: "--lock-after", valueName: "seconds",
            help: "Lock after this many seconds without a key (0: never). (default: \(defaultLockAfterSeconds))"
        ) { options, value throws(UsageError) in
            guard let seconds = Int(value) else {
                throw UsageError(description: "The value '\(value)' is invalid for '--lock-after <seconds>': a whole number of seconds.")
            }
            options.lockAfterSeconds = seconds
        },
        Option(
            name: "--data-dir", valueName: "path",
            help: "Keep every file under this folder instead of the XDG directories."
        ) { options, value in options.dataDirectory = value },
        Option(
            name: "--no-mouse", valueName: nil,
            help: "Leave the mouse to the terminal (also SKIFF_NO_MOUSE=1); Shift-drag selects text either way in most terminals."
        ) { options, _ in options.noMouse = true },
    ]

    /// Reads `arguments` (without the program's name): `--name value`, `--name=value`, flags, `-h` / `--help`,
    /// `--version`. The options are checked as a whole once read.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        if arguments.contains("--version") { return .version }
        var result = CommandLineOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let (name, attached) = split(argument)
            guard name.hasPrefix("-") else {
                throw UsageError(description: "Unexpected argument '\(argument)'")
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(description: "Unknown option '\(name)'")
            }
            guard let valueName = option.valueName else {
                if attached != nil {
                    throw UsageError(description: "'\(name)' takes no value")
                }
                try option.apply(&result, "")
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
            try option.apply(&result, value)
        }
        try result.validate()
        return .run(result)
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
        if let server {
            do {
                _ = try ServerAddress(parsing: server)
            } catch {
                throw UsageError(description: error.description)
            }
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
        "skiff " + options.map { option in
            "[" + option.name + (option.valueName.map { " <\($0)>" } ?? "") + "]"
        }.joined(separator: " ")
    }

    /// What `--help` prints.
    public static var help: String {
        let rows = options.map { option in
            (option.name + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
        } + [("--version", "Show the version."), ("-h, --help", "Show help information.")]
        let column = 26
        var text = """
            OVERVIEW: A keyboard-driven terminal wallet.

            \(wrap("Without --server, Skiff starts its own server on 127.0.0.1 (a free port) with its database under $XDG_DATA_HOME/skiff, seeded with a demo account on first run. The session and the log are kept under $XDG_STATE_HOME/skiff, the Home cache under $XDG_CACHE_HOME/skiff.", width: 80, indent: 0))

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
