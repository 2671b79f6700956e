import Foundation
import SkiffConfigFile
import TerminalUI

/// skiff's configuration file: the table's options by their setting names, and a `[keys]` table of key overrides.
/// The command line wins over the environment, the environment over the file, the file over the defaults.
extension CommandLineOptions {
    /// `$XDG_CONFIG_HOME/skiff/config.toml`, else `~/.config/skiff/config.toml`.
    public static func defaultConfigPath(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return base + "/skiff/config.toml"
    }

    /// The name of the table of key overrides.
    static let keysTable = "keys"

    /// Reads the arguments, then the configuration file they name (or the default one, when it exists: TOMLKit is
    /// not touched without a file), and layers them over the defaults. Throws `UsageError` for the arguments and
    /// `ConfigFileError` for the file: nothing starts half-configured.
    public static func resolve(_ arguments: [String], environment: [String: String]) throws -> Request {
        if let early = earlyRequest(arguments) { return early }
        let given = try scan(arguments)
        var result = CommandLineOptions()
        let explicitPath = given.last { $0.0.name == "--config" }?.1
        let path = explicitPath ?? defaultConfigPath(environment: environment)
        if FileManager.default.fileExists(atPath: path) {
            try result.apply(try ConfigFile.read(path: path))
            result.configFileFound = true
        } else if explicitPath != nil {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "does not exist (given with --config)")
        }
        result.configFile = path
        if !result.noMouse, !MouseSetting.reportsMouse(noMouseFlag: false, environment: environment) {
            result.noMouse = true
            result.sources["mouse"] = .environment("SKIFF_NO_MOUSE")
        }
        for (option, value) in given {
            try option.apply(&result, value)
            if let setting = option.setting { result.sources[setting] = .commandLine(option.name) }
        }
        try result.validate()
        return given.contains { $0.0.name == "--print-config" } ? .printConfig(result) : .run(result)
    }

    /// Applies every setting of `file`, or refuses it whole: an unknown key or table, a value of the wrong type, a
    /// key that is not a key, or one bound to two commands.
    mutating func apply(_ file: ConfigFile) throws(ConfigFileError) {
        func refuse(_ setting: ConfigFile.Setting, _ problem: String) -> ConfigFileError {
            ConfigFileError(path: file.path, line: setting.line, key: setting.qualifiedKey, problem: problem)
        }
        for setting in file.settings {
            if setting.table == Self.keysTable {
                try applyKey(setting, path: file.path, refuse: refuse)
                continue
            }
            if let table = setting.table {
                throw ConfigFileError(
                    path: file.path, line: setting.line, key: "[\(table)]", problem: "is not a table here; expected [\(Self.keysTable)]"
                )
            }
            guard let option = Self.options.first(where: { $0.setting == setting.key }) else {
                let known = Self.options.compactMap(\.setting).joined(separator: ", ")
                throw refuse(setting, "is not a setting; expected one of \(known), or a [\(Self.keysTable)] table")
            }
            let value: String
            switch (option.value, setting.value) {
            case (.text, .string(let text)):
                value = text
            case (.number, .integer(let number)) where number >= 0:
                value = String(number)
            case (.flag, .boolean(let flag)):
                value = String(option.settingInverts ? !flag : flag)
            default:
                throw refuse(setting, "is \(setting.value.typeName); expected \(Self.expectation(for: option))")
            }
            do {
                try option.apply(&self, value)
            } catch {
                throw refuse(setting, "is refused: \(error.description)")
            }
            sources[setting.key] = .file(path: file.path, line: setting.line)
        }
        try checkKeysBoundOnce(file: file)
    }

    /// What a setting's value must be, in words.
    static func expectation(for option: Option) -> String {
        switch option.value {
        case .text(let placeholder, _): "a string (\(placeholder))"
        case .number(let placeholder): "a whole number of \(placeholder), 0 or more"
        case .flag: "true or false"
        }
    }

    /// One `[keys]` entry: a command's name and its key, or an array of keys.
    private mutating func applyKey(
        _ setting: ConfigFile.Setting, path: String, refuse: (ConfigFile.Setting, String) -> ConfigFileError
    ) throws(ConfigFileError) {
        guard let command = SceneCommand.allCases.first(where: { $0.settingName == setting.key }) else {
            let known = SceneCommand.allCases.map(\.settingName).joined(separator: ", ")
            throw refuse(setting, "is not a command; expected one of \(known)")
        }
        let labels: [String]
        switch setting.value {
        case .string(let label): labels = [label]
        case .strings(let list) where !list.isEmpty: labels = list
        default: throw refuse(setting, "is \(setting.value.typeName); expected \(Self.keyExpectation)")
        }
        var keys: [Key] = []
        for label in labels {
            guard let key = Key(label: label) else {
                throw refuse(setting, "names no key: \(ConfigValue.quoted(label)); expected \(Self.keyExpectation)")
            }
            keys.append(key)
        }
        keyOverrides[command] = keys
        sources["\(Self.keysTable).\(command.settingName)"] = .file(path: path, line: setting.line)
    }

    /// A key given in the file to one command that another command on the same screens already has. Commands
    /// that share a key in the standard map (a form's submit and a list's mark-read) may go on sharing it.
    private func checkKeysBoundOnce(file: ConfigFile) throws(ConfigFileError) {
        guard !keyOverrides.isEmpty else { return }
        let standard = WalletKeys.standard
        let configured = keys
        func setting(of command: SceneCommand) -> ConfigFile.Setting? {
            file.settings.first { $0.table == Self.keysTable && $0.key == command.settingName }
        }
        // The kit's own keys (help, fields, lists) answer before or beside any command bound to them.
        for command in SceneCommand.allCases {
            let ownStandard = Set(standard.keys(for: command))
            guard let key = keyOverrides[command]?.first(where: { KitKeys.all.contains($0) && !ownStandard.contains($0) }) else { continue }
            throw ConfigFileError(
                path: file.path, line: setting(of: command)?.line, key: "\(Self.keysTable).\(command.settingName)",
                problem: "binds \(key.label), which every screen keeps for help, moving between fields or through a list; "
                    + "expected a key no other command has"
            )
        }
        for command in SceneCommand.allCases where keyOverrides[command] != nil {
            for other in SceneCommand.allCases where other != command {
                let shared = Set(configured.keys(for: command)).intersection(configured.keys(for: other))
                    .subtracting(Set(standard.keys(for: command)).intersection(standard.keys(for: other)))
                guard let key = shared.first else { continue }
                throw ConfigFileError(
                    path: file.path, line: setting(of: command)?.line, key: "\(Self.keysTable).\(command.settingName)",
                    problem: "binds \(key.label), which \(other.settingName) has too; expected a key no other command has"
                )
            }
        }
    }

    // MARK: --print-config

    /// Every setting as config.toml writes it, each with where its value came from; unset ones commented out.
    public var configurationText: String {
        var lines = [
            "# skiff's configuration: the command line wins over the environment, the environment over the file,",
            "# the file over the defaults.",
            "# file: \(configFile ?? "(none)")" + (configFileFound ? "" : " (not there: nothing read)"),
            "",
        ]
        func row(_ text: String, _ source: String) -> String {
            text.padding(toLength: max(text.count, 34), withPad: " ", startingAt: 0) + " # " + source
        }
        for option in Self.options {
            guard let setting = option.setting else { continue }
            let source = sources[setting]?.description ?? "default"
            if let value = option.current(self) {
                lines.append(row("\(setting) = \(value)", source))
            } else {
                lines.append(row("# \(setting) is not set", source))
            }
        }
        lines += ["", "[\(Self.keysTable)]"]
        let map = keys
        for command in SceneCommand.allCases {
            let labels = map.keys(for: command).map(\.label)
            let value: ConfigValue = labels.count == 1 ? .string(labels[0]) : .strings(labels)
            let source = keyOverrides[command] == nil ? "default" : sources["\(Self.keysTable).\(command.settingName)"]?.description ?? "file"
            lines.append(row("\(command.settingName) = \(value)", "\(source); \(map.entry(for: command).help)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
