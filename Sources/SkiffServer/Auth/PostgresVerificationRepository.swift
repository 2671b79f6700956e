import Foundation
import Logging
import PostgresNIO
import SkiffCore

struct PostgresVerificationRepository: VerificationRepository {
    let database: PostgresDatabase

    func issueHistory(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date
    ) async throws -> CodeIssueHistory {
        let logger = database.logger
        return try await database.transaction { connection in
            try await Self.history(
                phone: phone, purpose: purpose, address: address, country: country, since: since,
                connection: connection, logger: logger
            )
        }
    }

    /// Serialised per address, then per country code, then per number, by transaction-scoped advisory locks (always
    /// in that order, and before any row lock), so that parallel requests on several instances cannot both pass a cap.
    func create<Refusal: Sendable>(
        _ record: VerificationRecord, address: String, country: CountryCodeWindow, historySince since: Date,
        refusal: @escaping @Sendable (CodeIssueHistory) -> Refusal?
    ) async throws -> Refusal? {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("code-address:" + address), 0))", logger: logger
            )
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("code-country:" + country.countryCode), 0))", logger: logger
            )
            try await Self.lockNumber(record.phone, connection: connection, logger: logger)
            let history = try await Self.history(
                phone: record.phone, purpose: record.purpose, address: address, country: country, since: since,
                connection: connection, logger: logger
            )
            if let refused = refusal(history) { return refused }
            let created = record.createdAt.millisecondsSince1970
            try await connection.query("""
                UPDATE verifications SET expires_at = \(created)
                WHERE phone = \(record.phone) AND purpose = \(record.purpose.rawValue) AND consumed_at IS NULL
                  AND expires_at > \(created)
                """, logger: logger)
            try await connection.query("""
                INSERT INTO verifications (id, phone, purpose, code_hash, user_id, subject, payload, created_at,
                                           expires_at, attempts, consumed_at, requested_by, country_code)
                VALUES (\(record.id), \(record.phone), \(record.purpose.rawValue), \(record.codeHash), \(record.userID),
                        \(record.subject), \(record.payload), \(created),
                        \(record.expiresAt.millisecondsSince1970), \(record.attempts),
                        \(record.consumedAt?.millisecondsSince1970), \(address), \(country.countryCode))
                """, logger: logger)
            return nil
        }
    }

    func verification(id: String) async throws -> VerificationRecord? {
        try await database.rows("SELECT \(unescaped: Self.columns) FROM verifications WHERE id = \(id)")
            .first.flatMap(Self.record)
    }

    /// The number is locked first (the advisory lock `create` takes), then the row (`FOR UPDATE`), so parallel tries
    /// at one code, or at several codes of one number, queue up and are all counted.
    func attempt(
        id: String, at date: Date, failuresSince: Date, pause: @escaping @Sendable ([Date]) -> Date?,
        judge: @escaping @Sendable (VerificationRecord) -> CodeTry, consumedBy: String?
    ) async throws -> CodeAttempt {
        let logger = database.logger
        return try await database.transaction { connection in
            let phones = try await connection.query(
                "SELECT phone FROM verifications WHERE id = \(id)", logger: logger
            ).collect()
            guard let phone = try phones.first?.decode(String.self) else { return .unusable }
            try await Self.lockNumber(phone, connection: connection, logger: logger)
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM verifications WHERE id = \(id) FOR UPDATE", logger: logger
            ).collect()
            guard let record = try rows.first.flatMap(Self.record) else { return .unusable }
            let judged = judge(record)
            if judged == .unusable { return .unusable }
            let scope = record.purpose.failureScope(phone: phone)
            var failures: [Date] = []
            for try await failedAt in try await connection.query("""
                SELECT failed_at FROM code_failures
                WHERE phone = \(scope) AND failed_at > \(failuresSince.millisecondsSince1970) ORDER BY failed_at
                """, logger: logger).decode(Int64.self) {
                failures.append(Date(millisecondsSince1970: failedAt))
            }
            if let until = pause(failures) { return .paused(until: until) }
            switch judged {
            case .unusable: return .unusable
            case .replay: return .replayed(record)
            case .right:
                try await connection.query(
                    "UPDATE verifications SET consumed_at = \(date.millisecondsSince1970), consumed_by = \(consumedBy) WHERE id = \(id)",
                    logger: logger
                )
                return .accepted(record)
            case .wrong:
                break
            }
            try await connection.query("UPDATE verifications SET attempts = attempts + 1 WHERE id = \(id)", logger: logger)
            try await connection.query(
                "DELETE FROM code_failures WHERE phone = \(scope) AND failed_at <= \(failuresSince.millisecondsSince1970)",
                logger: logger
            )
            try await connection.query(
                "INSERT INTO code_failures (phone, failed_at) VALUES (\(scope), \(date.millisecondsSince1970))", logger: logger
            )
            let attempts = record.attempts + 1
            return record.consumedAt == nil ? .wrong(attempts: attempts) : .replayMissed(attempts: attempts)
        }
    }

    private static func lockNumber(_ phone: String, connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtextextended(\("verification:" + phone), 0))", logger: logger
        )
    }

    private static func history(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date,
        connection: PostgresConnection, logger: Logger
    ) async throws -> CodeIssueHistory {
        var history = CodeIssueHistory(phone: [], address: [])
        let since = since.millisecondsSince1970
        for try await createdAt in try await connection.query("""
            SELECT created_at FROM verifications
            WHERE phone = \(phone) AND created_at > \(since) AND purpose = ANY(\(purpose.sharingCaps.map(\.rawValue))::TEXT[])
            ORDER BY created_at
            """, logger: logger
        ).decode(Int64.self) {
            history.phone.append(Date(millisecondsSince1970: createdAt))
        }
        for try await createdAt in try await connection.query(
            "SELECT created_at FROM verifications WHERE requested_by = \(address) AND created_at > \(since) ORDER BY created_at",
            logger: logger
        ).decode(Int64.self) {
            history.address.append(Date(millisecondsSince1970: createdAt))
        }
        var newestFirst: [Date] = []
        for try await createdAt in try await connection.query("""
            SELECT created_at FROM verifications
            WHERE country_code = \(country.countryCode) AND created_at > \(country.since.millisecondsSince1970)
            ORDER BY created_at DESC LIMIT \(country.newest)
            """, logger: logger
        ).decode(Int64.self) {
            newestFirst.append(Date(millisecondsSince1970: createdAt))
        }
        history.country = newestFirst.reversed()
        return history
    }

    private static let columns =
        "id, phone, purpose, code_hash, user_id, subject, payload, created_at, expires_at, attempts, consumed_at, consumed_by"

    private static func record(_ row: PostgresRow) throws -> VerificationRecord? {
        let (id, phone, purpose, codeHash, userID, subject, payload, createdAt, expiresAt, attempts, consumedAt, consumedBy) =
            try row.decode((String, String, String, String, String?, String?, Data?, Int64, Int64, Int, Int64?, String?).self)
        guard let purpose = CodePurpose(rawValue: purpose) else { return nil }
        return VerificationRecord(
            id: id, phone: phone, purpose: purpose, codeHash: codeHash, userID: userID, subject: subject, payload: payload,
            createdAt: Date(millisecondsSince1970: createdAt), expiresAt: Date(millisecondsSince1970: expiresAt),
            attempts: attempts, consumedAt: consumedAt.map(Date.init(millisecondsSince1970:)), consumedBy: consumedBy
        )
    }
}
