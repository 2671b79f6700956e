import Foundation
import Logging
import NIOSSL
import PostgresNIO
import SkiffCore
import SkiffTLS

/// The parts of a `postgres://` URL the client needs, with libpq's names: `sslmode` and `sslrootcert` in the query,
/// the password from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE`, else `~/.pgpass`).
/// `Redacted`, because it holds that password.
struct PostgresURL: Redacted {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    var sslMode: SSLMode
    /// The certificate authorities `sslrootcert` names (PEM); nil trusts the system's.
    var rootCertificates: [NIOSSLCertificate]?
    /// A directory holding the server's Unix socket, from `?host=/path`.
    var socketDirectory: String?

    /// libpq's `sslmode`s that keep their promise. `allow` and `prefer` are refused: they fall back to plaintext
    /// without a word, and never check whom they talk to.
    enum SSLMode: String, CaseIterable, Sendable {
        /// Plaintext: the default on loopback and over a Unix socket, where nothing crosses a network.
        case disable
        /// Encrypted, the server unchecked (unless `sslrootcert` is given: then as `verify-ca`, as libpq does).
        case require
        /// Encrypted, the server's certificate signed by `sslrootcert` (or a system authority), any name.
        case verifyCA = "verify-ca"
        /// Also the certificate names the host: the default for any host that is not loopback.
        case verifyFull = "verify-full"
    }

    enum ParseError: Error, CustomStringConvertible {
        case unreadable(DatabaseLocation)
        case unsupportedSSLMode(String)
        case passwordInQuery
        case unreadableRootCertificate(String)

        var description: String {
            switch self {
            case .unreadable(let location): "The database URL \(location) cannot be read: expected postgres://USER@HOST:PORT/DATABASE."
            case .unsupportedSSLMode(let mode):
                "sslmode=\(mode) is not supported: use "
                    + SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (allow and prefer fall back to plaintext without a word)."
            case .passwordInQuery:
                "A password in the database URL's query (?password=) is refused: it would sit in the process list. "
                    + "Put it in a password file (PGPASSFILE, else ~/.pgpass, mode 0600) or PGPASSWORD."
            case .unreadableRootCertificate(let path): "sslrootcert=\(path) cannot be read or holds no PEM certificate."
            }
        }
    }

    init(_ url: String, environment: [String: String]) throws {
        guard let components = URLComponents(string: url), let username = components.user, !username.isEmpty else {
            throw ParseError.unreadable(.postgres(url: url))
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        guard query["password"] == nil else { throw ParseError.passwordInQuery }
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard let host = components.host.flatMap({ $0.isEmpty ? nil : $0 }) ?? socketDirectory.map({ _ in "localhost" }) else {
            throw ParseError.unreadable(.postgres(url: url))
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        if let mode = query["sslmode"] {
            guard let known = SSLMode(rawValue: mode) else { throw ParseError.unsupportedSSLMode(mode) }
            sslMode = known
        } else {
            sslMode = socketDirectory != nil || LoopbackAddress.isLoopback(host: host) ? .disable : .verifyFull
        }
        if let rootPath = query["sslrootcert"] {
            guard let certificates = try? NIOSSLCertificate.fromPEMFile(rootPath), !certificates.isEmpty else {
                throw ParseError.unreadableRootCertificate(rootPath)
            }
            rootCertificates = certificates
        }
        password = try components.password ?? environment["PGPASSWORD"] ?? PostgresPasswordFile.password(
            host: host, port: port, database: database ?? username, username: username,
            environment: environment
        )
    }

    var redactedDescription: String {
        "PostgresURL(\(username)@\(host):\(port)/\(database ?? ""), sslmode=\(sslMode.rawValue))"
    }

    /// The TLS `sslmode` asks for, nil when it is `disable` (or a Unix socket is used).
    var tlsConfiguration: TLSConfiguration? {
        guard socketDirectory == nil, sslMode != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration().restrictedToSkiffPolicy()
        if let rootCertificates { configuration.trustRoots = .certificates(rootCertificates) }
        configuration.certificateVerification = switch sslMode {
        case .disable, .require: rootCertificates == nil ? .none : .noHostnameVerification
        case .verifyCA: .noHostnameVerification
        case .verifyFull: .fullVerification
        }
        return configuration
    }

    var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database
            )
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: tlsConfiguration.map { .require($0) } ?? .disable
        )
    }

    /// Why the first connection failed, worded for the person who wrote the URL.
    struct ConnectionError: Error, CustomStringConvertible {
        let description: String
    }

    /// How long a connection attempt may take (PostgresNIO's default).
    static let connectTimeout = Duration.seconds(10)

    /// Makes one connection as the pool would, within `connectTimeout` from the socket to the end of the handshake (a
    /// server may take the socket and then say nothing: `PostgresHosts.NoAnswer`); a failure of TLS says what
    /// `sslmode` asked for. The caller closes it.
    func connect(logger: Logger, connectTimeout: Duration = Self.connectTimeout) async throws -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = try tlsConfiguration.map { .require(try NIOSSLContext(configuration: $0)) } ?? .disable
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000
            + connectTimeout.components.attoseconds / 1_000_000_000)
        let server = "The PostgreSQL server at \(host):\(port)"
        do {
            return try await FirstOutcome.within(connectTimeout, onLate: { try? await $0?.close() }) { [configuration] in
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
        } catch let error as PSQLError where error.code == .sslUnsupported {
            throw ConnectionError(description: "\(server) does not offer TLS, which sslmode=\(sslMode.rawValue) requires. "
                + "Turn on ssl in its postgresql.conf, or give sslmode=disable for a database on this machine.")
        } catch let error as PSQLError where error.underlying is NIOSSLError {
            throw ConnectionError(description: "\(server): the TLS handshake failed (\(error.underlying.map { "\($0)" } ?? "")). "
                + Self.verificationHint(sslMode))
        } catch let error as NIOSSLError {
            throw ConnectionError(description: "\(server): the TLS handshake failed (\(error)). " + Self.verificationHint(sslMode))
        } catch let error as PSQLError {
            // PSQLError prints nothing of itself; its code, the server's message and a socket error hold no secret.
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
            throw ConnectionError(description: "\(server) could not be reached or refused the connection: \(reason).")
        }
    }

    private static func verificationHint(_ mode: SSLMode) -> String {
        switch mode {
        case .verifyFull: "With sslmode=verify-full its certificate must be signed by sslrootcert (or a system authority) and name the host."
        case .verifyCA: "With sslmode=verify-ca its certificate must be signed by sslrootcert (or a system authority)."
        case .require, .disable: "It must speak TLS 1.2 or later."
        }
    }
}
