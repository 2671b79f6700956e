import Foundation
import GRDB
import SkiffCore

struct SQLiteVerificationRepository: VerificationRepository {
    let pool: DatabasePool

    func create(_ record: VerificationRecord, unlessSentAfter notBefore: Date) async throws -> Date? {
        try await pool.write { db in
            let latest = try Int64.fetchOne(
                db, sql: "SELECT max(created_at) FROM verifications WHERE phone = ?", arguments: [record.phone]
            )
            if let latest, latest > notBefore.millisecondsSince1970 {
                return Date(millisecondsSince1970: latest)
            }
            try db.execute(
                sql: """
                    INSERT INTO verifications (id, phone, purpose, code_hash, user_id, subject, payload, created_at,
                                               expires_at, attempts, consumed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.id, record.phone, record.purpose.rawValue, record.codeHash, record.userID, record.subject,
                    record.payload, record.createdAt.millisecondsSince1970, record.expiresAt.millisecondsSince1970,
                    record.attempts, record.consumedAt?.millisecondsSince1970,
                ]
            )
            return nil
        }
    }

    func verification(id: String) async throws -> VerificationRecord? {
        try await pool.read { db in try Self.fetch(id: id, db: db) }
    }

    func attempt(
        id: String, at date: Date, isUsable: @Sendable (VerificationRecord) -> Bool,
        isRight: @Sendable (VerificationRecord) -> Bool
    ) async throws -> CodeAttempt {
        try await pool.write { db in
            guard let record = try Self.fetch(id: id, db: db), isUsable(record) else { return .unusable }
            if isRight(record) {
                try db.execute(
                    sql: "UPDATE verifications SET consumed_at = ? WHERE id = ?", arguments: [date.millisecondsSince1970, id]
                )
                return .accepted(record)
            }
            try db.execute(sql: "UPDATE verifications SET attempts = attempts + 1 WHERE id = ?", arguments: [id])
            return .wrong(attempts: record.attempts + 1)
        }
    }

    private static func fetch(id: String, db: Database) throws -> VerificationRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM verifications WHERE id = ?", arguments: [id]),
              let purpose = CodePurpose(rawValue: row["purpose"])
        else { return nil }
        return VerificationRecord(
            id: row["id"], phone: row["phone"], purpose: purpose, codeHash: row["code_hash"], userID: row["user_id"],
            subject: row["subject"], payload: row["payload"], createdAt: row.date("created_at"),
            expiresAt: row.date("expires_at"), attempts: row["attempts"], consumedAt: row.optionalDate("consumed_at")
        )
    }
}
