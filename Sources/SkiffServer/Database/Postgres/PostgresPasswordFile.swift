import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's password file: `PGPASSFILE`, else `~/.pgpass`; lines `host:port:database:username:password`, where `*`
/// matches anything, `\:` and `\\` stand for `:` and `\`, and `#` starts a comment. It must be the owner's alone
/// (`OwnerOnlyFile`): libpq skips a wider one with a warning, the server refuses to start.
enum PostgresPasswordFile {
    /// The password of the first line matching the connection, or nil (no file, no line).
    static func password(
        host: String, port: Int, database: String, username: String, environment: [String: String]
    ) throws -> String? {
        let path: String
        if let given = environment["PGPASSFILE"], !given.isEmpty {
            path = given
        } else if let home = environment["HOME"], !home.isEmpty {
            path = home + "/.pgpass"
        } else {
            return nil
        }
        guard let descriptor = try OwnerOnlyFile.openChecked(path, flags: O_RDONLY, "The password file") else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return password(in: text, host: host, port: port, database: database, username: username)
    }

    /// The password of the first line of `text` matching the connection.
    static func password(in text: String, host: String, port: Int, database: String, username: String) -> String? {
        let wanted = [host, String(port), database, username]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = self.fields(of: line)
            guard fields.count == 5 else { continue }
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The line split on unescaped colons, with `\:` and `\\` unescaped.
    private static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
