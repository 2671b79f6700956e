import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TOMLKit

/// A configuration file read as TOML (`config.toml` for skiff, `server.toml` for skiff-server): its settings, each
/// with the line it is on, for the program's own table of options to check and apply.
///
/// Only this module touches TOMLKit, and a program opens it only when its file exists, so a start without one costs
/// nothing (docs/decisions/0159-configuration-files.md).
public struct ConfigFile: Sendable, Equatable {
    /// One `key = value`: in a `[table]` when `table` is set.
    public struct Setting: Sendable, Equatable {
        public var table: String?
        public var key: String
        public var value: ConfigValue
        /// 1-based; 0 when the line could not be found (a key written in an unusual form).
        public var line: Int

        public init(table: String?, key: String, value: ConfigValue, line: Int) {
            self.table = table
            self.key = key
            self.value = value
            self.line = line
        }

        /// `key` or `table.key`, as the file spells it.
        public var qualifiedKey: String { table.map { "\($0).\(key)" } ?? key }
    }

    public var path: String
    /// In the file's order.
    public var settings: [Setting]

    public init(path: String, settings: [Setting]) {
        self.path = path
        self.settings = settings
    }

    /// Reads and parses the file at `path`. With `ownerWritesOnly` (the server's `server.toml`), a file that group or
    /// others may write is refused, as the server's key file is: whoever can change it chooses the database, the card
    /// network and the keys the server uses. The mode is read from the open file, so it is the file that is then read.
    public static func read(path: String, ownerWritesOnly: Bool = false) throws(ConfigFileError) -> ConfigFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be read (\(reason))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be examined")
        }
        if ownerWritesOnly, status.st_mode & 0o022 != 0 {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "can be changed by other users (mode "
                + String(status.st_mode & 0o777, radix: 8) + "): make it writable by its owner alone with `chmod go-w "
                + path + "` and start again")
        }
        guard let data = try? handle.readToEnd() ?? Data(), let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be read as UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses `text` as the file at `path` (which only names it in errors). Tables may hold values; deeper
    /// tables are refused, as no program here has any.
    public static func parse(_ text: String, path: String) throws(ConfigFileError) -> ConfigFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(
                path: path, line: error.source.begin.line, key: nil, problem: "is not valid TOML: \(error.description)"
            )
        } catch {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "is not valid TOML: \(error)")
        }
        let lines = KeyLines(text)
        var settings: [Setting] = []
        for key in table.keys {
            guard let value = table[key] else { continue }
            if let inner = value.table {
                for innerKey in inner.keys {
                    guard let innerValue = inner[innerKey] else { continue }
                    let line = lines.line(of: innerKey, in: key)
                    guard let converted = ConfigValue(innerValue) else {
                        throw ConfigFileError(
                            path: path, line: line, key: "\(key).\(innerKey)", problem: "is a table; expected a value"
                        )
                    }
                    settings.append(Setting(table: key, key: innerKey, value: converted, line: line))
                }
            } else if let converted = ConfigValue(value) {
                settings.append(Setting(table: nil, key: key, value: converted, line: lines.line(of: key, in: nil)))
            }
        }
        settings.sort { ($0.line, $0.qualifiedKey) < ($1.line, $1.qualifiedKey) }
        return ConfigFile(path: path, settings: settings)
    }
}

/// A setting's value, as TOML typed it.
public enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case strings([String])
    /// Any other TOML type (a float, a date, a mixed array): named for the error.
    case other(typeName: String)

    init?(_ value: TOMLValueConvertible) {
        switch value.type {
        case .string: self = .string(value.string ?? "")
        case .int: self = .integer(value.int ?? 0)
        case .bool: self = .boolean(value.bool ?? false)
        case .array:
            let array = value.array.map(Array.init) ?? []
            let strings = array.compactMap(\.string)
            self = strings.count == array.count ? .strings(strings) : .other(typeName: "an array that is not all strings")
        case .table: return nil
        case .double: self = .other(typeName: "a decimal number")
        case .date, .time, .dateTime: self = .other(typeName: "a date or time")
        }
    }

    /// The TOML type, as an error names it ("a string").
    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "a whole number"
        case .boolean: "true or false"
        case .strings: "an array of strings"
        case .other(let typeName): typeName
        }
    }

    /// The value written as TOML.
    public var description: String {
        switch self {
        case .string(let text): ConfigValue.quoted(text)
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        case .strings(let texts): "[" + texts.map(ConfigValue.quoted).joined(separator: ", ") + "]"
        case .other(let typeName): "(\(typeName))"
        }
    }

    /// `text` as a TOML basic string.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += String(format: "\\u%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// Why a configuration file was refused: the file, the line and the key when known, and what was expected.
public struct ConfigFileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var key: String?
    public var problem: String

    public init(path: String, line: Int?, key: String?, problem: String) {
        self.path = path
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// `config.toml line 3: lock_after is a string; expected a whole number of seconds.`
    public var description: String {
        var place = path
        if let line, line > 0 { place += " line \(line)" }
        return "\(place): " + (key.map { "\($0) " } ?? "") + problem
    }
}

/// Where each key of a TOML text is written: the first `key =` (bare or quoted) after its `[table]` header.
struct KeyLines {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    func line(of key: String, in table: String?) -> Int {
        var current: String?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                let name = line.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                current = name.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                continue
            }
            guard current == table, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if name == key { return index + 1 }
        }
        // A dotted key at the top (`keys.quit = "x"`).
        if let table {
            for (index, raw) in lines.enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                guard let equals = line.firstIndex(of: "=") else { continue }
                let name = line[..<equals].replacingOccurrences(of: " ", with: "")
                if name == "\(table).\(key)" { return index + 1 }
            }
        }
        return 0
    }
}
