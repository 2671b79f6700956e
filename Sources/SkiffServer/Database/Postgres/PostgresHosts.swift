import Foundation
import Logging
import PostgresNIO
import SkiffCore

/// A database URL with one host or several, as libpq reads `postgres://USER@HOST1:PORT1,HOST2:PORT2/DB?
/// target_session_attrs=read-write`: one `PostgresURL` per host in the URL's order, each with every rule of a
/// single-host URL (its own `sslmode` default, loopback or not; its own password-file entry; no password in the
/// query), and which of them to use.
struct PostgresHosts: Redacted {
    /// Which of the hosts a connection is for, with libpq's names. When the URL does not say: `any` for one host (as
    /// libpq), `readWrite` for several.
    enum TargetSessionAttributes: String, CaseIterable, Sendable {
        /// The first host that answers.
        case any
        /// The first that accepts writes (`SHOW transaction_read_only` is off).
        case readWrite = "read-write"
        /// The first that is not in recovery (`pg_is_in_recovery()` is false).
        case primary
        /// The first in recovery.
        case standby
        /// The first in recovery, else the first that answers.
        case preferStandby = "prefer-standby"
    }

    enum ParseError: Error, CustomStringConvertible {
        case unsupportedTarget(String)

        var description: String {
            switch self {
            case .unsupportedTarget(let value):
                "target_session_attrs=\(value) is not supported: use "
                    + TargetSessionAttributes.allCases.map(\.rawValue).joined(separator: ", ") + "."
            }
        }
    }

    var endpoints: [PostgresURL]
    var target: TargetSessionAttributes

    init(_ url: String, environment: [String: String]) throws {
        guard let parts = PostgresURLParts(url), !parts.hosts.isEmpty else {
            throw PostgresURL.ParseError.unreadable(.postgres(url: url))
        }
        // The query is every host's: read it as a single-host URL is read (`URLComponents`, the last of a repeat).
        let value = URLComponents(string: parts.url(forHost: parts.hosts[0]))?.queryItems?
            .last { $0.name == "target_session_attrs" }.map { $0.value ?? "" }
        // Unsaid, libpq's default is `any`; for several hosts Skiff's is read-write: a server that writes has no use
        // for a standby, and `any` would keep it on a primary demoted by a failover.
        let unsaid = parts.hosts.count > 1 ? TargetSessionAttributes.readWrite : .any
        guard let target = TargetSessionAttributes(rawValue: value ?? unsaid.rawValue) else {
            throw ParseError.unsupportedTarget(value ?? "")
        }
        self.target = target
        if parts.hosts.count == 1 {
            endpoints = [try PostgresURL(url, environment: environment)]
        } else {
            // Every host of a list is a host: an empty one (`h1,,h2`) is a mistake, not the socket of `?host=`.
            guard !parts.hosts.contains(where: \.isEmpty) else { throw PostgresURL.ParseError.unreadable(.postgres(url: url)) }
            endpoints = try parts.hosts.map { try PostgresURL(parts.url(forHost: $0), environment: environment) }
        }
    }

    var redactedDescription: String {
        "PostgresHosts(\(endpoints.map(\.redactedDescription).joined(separator: ", ")), target_session_attrs=\(target.rawValue))"
    }

    /// What a server said it is, for `target`.
    struct Role: Equatable, Sendable {
        var readOnly: Bool
        var inRecovery: Bool
    }

    /// The index of the endpoint `target` picks, given what each answered (nil: it could not be reached), or nil
    /// when none fits.
    static func pick(_ roles: [Role?], for target: TargetSessionAttributes) -> Int? {
        switch target {
        case .any: roles.firstIndex { $0 != nil }
        case .readWrite: roles.firstIndex { $0?.readOnly == false }
        case .primary: roles.firstIndex { $0?.inRecovery == false }
        case .standby: roles.firstIndex { $0?.inRecovery == true }
        case .preferStandby: roles.firstIndex { $0?.inRecovery == true } ?? roles.firstIndex { $0 != nil }
        }
    }

    /// The endpoint to open the pool on: each host is connected to in the URL's order (and asked what it is, when
    /// `target` needs it) until one fits. When none does, the error names every host and what it answered, so the
    /// person who wrote the URL sees which host failed how.
    func choose(logger: Logger, connectTimeout: Duration = PostgresURL.connectTimeout) async throws -> PostgresURL {
        var roles: [Role?] = []
        var answers: [String] = []
        for endpoint in endpoints {
            let server = "\(endpoint.host):\(endpoint.port)"
            let role: Role
            do {
                let connection = try await endpoint.connect(logger: logger, connectTimeout: connectTimeout)
                role = try await Self.role(of: connection, logger: logger, timeout: connectTimeout)
                try? await connection.close()
            } catch {
                roles.append(nil)
                answers.append(error is NoAnswer ? "\(server) did not answer within \(connectTimeout)" : "\(error)")
                continue
            }
            roles.append(role)
            answers.append("\(server) is " + (role.inRecovery ? "a standby" : role.readOnly ? "read-only" : "a primary"))
            // A standby is what prefer-standby waits for; any other target takes the first host that fits.
            if target == .preferStandby ? role.inRecovery : Self.pick([role], for: target) != nil { return endpoint }
        }
        if let index = Self.pick(roles, for: target) { return endpoints[index] }
        guard endpoints.count > 1 else { throw PostgresURL.ConnectionError(description: answers.first ?? "") }
        throw PostgresURL.ConnectionError(description: "No host of the database URL fits target_session_attrs=\(target.rawValue): "
            + answers.joined(separator: "; ") + ".")
    }

    /// No answer to the question within its time.
    struct NoAnswer: Error, CustomStringConvertible {
        var description: String { "the server did not answer in time" }
    }

    /// Whether the server takes writes and whether it is in recovery (a standby). Past `timeout` it throws `NoAnswer`
    /// and closes the connection: a host that stopped answering is not waited for.
    static func role(of connection: PostgresConnection, logger: Logger, timeout: Duration) async throws -> Role {
        try await FirstOutcome.within(timeout, onLate: { _ in try? await connection.close() }) {
            let rows = try await connection.query(
                "SELECT current_setting('transaction_read_only') = 'on', pg_is_in_recovery()", logger: logger
            )
            var role = Role(readOnly: true, inRecovery: true)
            for try await (readOnly, inRecovery) in rows.decode((Bool, Bool).self) {
                role = Role(readOnly: readOnly, inRecovery: inRecovery)
            }
            return role
        }
    }
}

extension PostgresHosts {
    /// What an operator should hear at start about how each host is reached (issue 45): plaintext or an unchecked
    /// certificate to a host beyond this machine, where the password and every row cross a network anyone on the
    /// path may read, or pose as the database.
    var transportWarnings: [String] {
        endpoints.compactMap { endpoint in
            guard endpoint.socketDirectory == nil, !LoopbackAddress.isLoopback(host: endpoint.host) else { return nil }
            switch endpoint.sslMode {
            case .disable:
                return "The database \(endpoint.host):\(endpoint.port) is not on this machine and sslmode=disable sends its "
                    + "password and every row in clear. Use sslmode=verify-full (the default off loopback)."
            case .require where endpoint.rootCertificates == nil:
                return "The database \(endpoint.host):\(endpoint.port) is not on this machine and sslmode=require does not "
                    + "check its certificate: anyone on the path can pose as it. Use sslmode=verify-full (with "
                    + "sslrootcert= for a private authority)."
            case .require, .verifyCA, .verifyFull:
                return nil
            }
        }
    }
}
