import Foundation

/// Where the server keeps its data: a SQLite file (the embedded default) or a PostgreSQL database by URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&host=SOCKET_DIRECTORY]`; without a password
    /// in the URL, `PGPASSWORD` is used.
    case postgres(url: String)

    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything else is a SQLite path.
    public init(parsing text: String) {
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The path or the URL with any password replaced by `***`: safe to log.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://(unreadable URL)" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://(unreadable URL)"
        }
    }
}
