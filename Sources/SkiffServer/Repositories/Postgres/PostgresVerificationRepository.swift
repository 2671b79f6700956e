import Foundation
import PostgresNIO
import SkiffCore

struct PostgresVerificationRepository: VerificationRepository {
    let database: PostgresDatabase

    /// Serialised per number by a transaction-scoped advisory lock, so two parallel requests cannot both pass the
    /// "one code every so often" check.
    func create(_ record: VerificationRecord, unlessSentAfter notBefore: Date) async throws -> Date? {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("verification:" + record.phone), 0))", logger: logger
            )
            let rows = try await connection.query(
                "SELECT MAX(created_at) FROM verifications WHERE phone = \(record.phone)", logger: logger
            ).collect()
            if let latest = try rows.first?.decode(Int64?.self), latest > notBefore.millisecondsSince1970 {
                return Date(millisecondsSince1970: latest)
            }
            try await connection.query("""
                INSERT INTO verifications (id, phone, purpose, code_hash, user_id, subject, payload, created_at,
                                           expires_at, attempts, consumed_at)
                VALUES (\(record.id), \(record.phone), \(record.purpose.rawValue), \(record.codeHash), \(record.userID),
                        \(record.subject), \(record.payload), \(record.createdAt.millisecondsSince1970),
                        \(record.expiresAt.millisecondsSince1970), \(record.attempts),
                        \(record.consumedAt?.millisecondsSince1970))
                """, logger: logger)
            return nil
        }
    }

    func verification(id: String) async throws -> VerificationRecord? {
        try await database.rows("SELECT \(unescaped: Self.columns) FROM verifications WHERE id = \(id)")
            .first.flatMap(Self.record)
    }

    /// The row is locked (`FOR UPDATE`) from the read to the write, so parallel tries at one code queue up.
    func attempt(
        id: String, at date: Date, isUsable: @Sendable (VerificationRecord) -> Bool,
        isRight: @Sendable (VerificationRecord) -> Bool
    ) async throws -> CodeAttempt {
        let logger = database.logger
        return try await database.transaction { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM verifications WHERE id = \(id) FOR UPDATE", logger: logger
            ).collect()
            guard let record = try rows.first.flatMap(Self.record), isUsable(record) else { return .unusable }
            if isRight(record) {
                try await connection.query(
                    "UPDATE verifications SET consumed_at = \(date.millisecondsSince1970) WHERE id = \(id)", logger: logger
                )
                return .accepted(record)
            }
            try await connection.query("UPDATE verifications SET attempts = attempts + 1 WHERE id = \(id)", logger: logger)
            return .wrong(attempts: record.attempts + 1)
        }
    }

    private static let columns =
        "id, phone, purpose, code_hash, user_id, subject, payload, created_at, expires_at, attempts, consumed_at"

    private static func record(_ row: PostgresRow) throws -> VerificationRecord? {
        let (id, phone, purpose, codeHash, userID, subject, payload, createdAt, expiresAt, attempts, consumedAt) =
            try row.decode((String, String, String, String, String?, String?, Data?, Int64, Int64, Int, Int64?).self)
        guard let purpose = CodePurpose(rawValue: purpose) else { return nil }
        return VerificationRecord(
            id: id, phone: phone, purpose: purpose, codeHash: codeHash, userID: userID, subject: subject, payload: payload,
            createdAt: Date(millisecondsSince1970: createdAt), expiresAt: Date(millisecondsSince1970: expiresAt),
            attempts: attempts, consumedAt: consumedAt.map(Date.init(millisecondsSince1970:))
        )
    }
}
