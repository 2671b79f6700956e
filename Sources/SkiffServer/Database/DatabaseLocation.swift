import Foundation

/// Where the server keeps its data: a SQLite file (the embedded default) or a PostgreSQL database by URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    /// `postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?sslmode=…&sslrootcert=PEM&host=SOCKET_DIRECTORY&
    /// target_session_attrs=…]`; without a password in the URL, `PGPASSWORD`, else the password file (`PostgresURL`,
    /// `PostgresHosts`).
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

    /// The path or the URL with any password (`USER:PASSWORD@`, or a `password=` in the query, which is refused
    /// but must not be printed by its refusal either) replaced by `***`: safe to log.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url):
            return PostgresURLParts(url)?.redacted ?? "postgres://(unreadable URL)"
        }
    }
}
