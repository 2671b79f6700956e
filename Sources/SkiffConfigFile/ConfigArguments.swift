import Foundation

/// A program's configuration file and environment turned into command-line arguments for its own parser, for
/// the options the command line does not give: the command line wins over the environment, the environment over
/// the file, the file over the defaults. Used by skiff-server, whose options table is its swift-argument-parser
/// declarations (docs/decisions/0159-configuration-files.md).
public struct ConfigArguments: Sendable, Equatable {
    /// One long option as the parser declares it.
    public struct Option: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Takes no value.
            case flag
            /// Takes one value.
            case value
            /// Takes a value and may be given again.
            case repeating
        }

        /// The long name without its dashes (`key-file`).
        public var name: String
        public var kind: Kind
        /// The value's placeholder in the help, for errors.
        public var valueName: String?

        public init(name: String, kind: Kind, valueName: String? = nil) {
            self.name = name
            self.kind = kind
            self.valueName = valueName
        }

        /// Its key in the file: the long name with underscores (`key_file`).
        public var settingKey: String { name.replacingOccurrences(of: "-", with: "_") }
    }

    /// Where an option's value came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case file(path: String, line: Int)
        case environment(String)

        public var description: String {
            switch self {
            case .file(let path, let line): line > 0 ? "\(path) line \(line)" : path
            case .environment(let variable): "the environment's \(variable)"
            }
        }
    }

    /// The arguments to put before the command line's.
    public var arguments: [String]
    /// Where each option in `arguments` came from, by long name.
    public var sources: [String: Source]

    /// The environment variable for `option`: `SKIFF_` and its setting key in capitals, unless `renamed` names
    /// another (`database` is `SKIFF_DATABASE_URL`).
    public static func environmentVariable(for option: Option, renamed: [String: String]) -> String {
        renamed[option.name] ?? "SKIFF_" + option.settingKey.uppercased()
    }

    /// Checks every setting of `file` against `known` (every option of every command: a file may hold settings
    /// for commands other than this one), then gives the arguments for `options` (this command's) that
    /// `commandLine` lacks, from `environment`, else from `file`.
    public static func make(
        commandLine: [String], options: [Option], known: [Option], file: ConfigFile?, environment: [String: String],
        renamedVariables: [String: String] = [:]
    ) throws(ConfigFileError) -> ConfigArguments {
        var fromFile: [String: (values: [String], line: Int)] = [:]
        if let file {
            for setting in file.settings {
                guard setting.table == nil else {
                    throw ConfigFileError(
                        path: file.path, line: setting.line, key: "[\(setting.table ?? "")]", problem: "is not a table here; expected none"
                    )
                }
                guard let option = known.first(where: { $0.settingKey == setting.key }) else {
                    let names = Set(known.map(\.settingKey)).sorted().joined(separator: ", ")
                    throw ConfigFileError(
                        path: file.path, line: setting.line, key: setting.key, problem: "is not a setting; expected one of \(names)"
                    )
                }
                guard let values = values(of: setting.value, for: option) else {
                    throw ConfigFileError(
                        path: file.path, line: setting.line, key: setting.key,
                        problem: "is \(setting.value.typeName); expected \(expectation(for: option))"
                    )
                }
                fromFile[option.name] = (values, setting.line)
            }
        }
        var result = ConfigArguments(arguments: [], sources: [:])
        for option in options where !given(option, in: commandLine) {
            let variable = environmentVariable(for: option, renamed: renamedVariables)
            if let text = environment[variable] {
                guard let values = values(ofVariable: text, for: option) else {
                    throw ConfigFileError(
                        path: "the environment", line: nil, key: variable, problem: "is \(ConfigValue.quoted(text)); expected "
                            + (option.kind == .flag ? "1, true, 0, false or empty" : expectation(for: option))
                    )
                }
                result.add(option, values, source: .environment(variable))
            } else if let file, let (values, line) = fromFile[option.name] {
                result.add(option, values, source: .file(path: file.path, line: line))
            }
        }
        return result
    }

    private mutating func add(_ option: Option, _ values: [String], source: Source) {
        switch option.kind {
        case .flag:
            guard values == ["true"] else { return }
            arguments.append("--\(option.name)")
        case .value, .repeating:
            for value in values { arguments += ["--\(option.name)=\(value)"] }
        }
        if !values.isEmpty { sources[option.name] = source }
    }

    /// Whether the command line gives `option` (`--name`, `--name=value`).
    static func given(_ option: Option, in commandLine: [String]) -> Bool {
        let flag = "--\(option.name)"
        return commandLine.contains { $0 == flag || $0.hasPrefix(flag + "=") }
    }

    /// A file's value as the parser's text: a flag's "true" or "false", one value, or a repeating option's values.
    static func values(of value: ConfigValue, for option: Option) -> [String]? {
        switch (option.kind, value) {
        case (.flag, .boolean(let flag)): [String(flag)]
        case (.value, .string(let text)), (.repeating, .string(let text)): [text]
        case (.value, .integer(let number)), (.repeating, .integer(let number)): [String(number)]
        case (.repeating, .strings(let texts)): texts
        default: nil
        }
    }

    /// An environment variable's text as the parser's: a flag's 1/true (on) or 0/false/empty (off); a repeating
    /// option's values separated by commas.
    static func values(ofVariable text: String, for option: Option) -> [String]? {
        switch option.kind {
        case .flag:
            switch text.lowercased() {
            case "1", "true": ["true"]
            case "0", "false", "": ["false"]
            default: nil
            }
        case .value: [text]
        case .repeating: text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// What a setting's value must be, in words.
    static func expectation(for option: Option) -> String {
        let placeholder = option.valueName.map { " (\($0))" } ?? ""
        return switch option.kind {
        case .flag: "true or false"
        case .value: "a string or a number\(placeholder)"
        case .repeating: "an array of strings\(placeholder)"
        }
    }
}
