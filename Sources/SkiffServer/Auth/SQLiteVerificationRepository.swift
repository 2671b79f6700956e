import Foundation
import GRDB
import SkiffCore

struct SQLiteVerificationRepository: VerificationRepository {
    let pool: MeteredPool

    func issueHistory(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date
    ) async throws -> CodeIssueHistory {
        try await pool.read { db in
            try Self.history(phone: phone, purpose: purpose, address: address, country: country, since: since, db: db)
        }
    }

    func create<Refusal: Sendable>(
        _ record: VerificationRecord, address: String, country: CountryCodeWindow, historySince since: Date,
        refusal: @escaping @Sendable (CodeIssueHistory) -> Refusal?
    ) async throws -> Refusal? {
        try await pool.write { db in
            let history = try Self.history(
                phone: record.phone, purpose: record.purpose, address: address, country: country, since: since, db: db
            )
            if let refused = refusal(history) {
                return refused
            }
            let created = record.createdAt.millisecondsSince1970
            try db.execute(
                sql: """
                    UPDATE verifications SET expires_at = ?
                    WHERE phone = ? AND purpose = ? AND consumed_at IS NULL AND expires_at > ?
                    """,
                arguments: [created, record.phone, record.purpose.rawValue, created]
            )
            try db.execute(
                sql: """
                    INSERT INTO verifications (id, phone, purpose, code_hash, user_id, subject, payload, created_at,
                                               expires_at, attempts, consumed_at, requested_by, country_code)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.id, record.phone, record.purpose.rawValue, record.codeHash, record.userID, record.subject,
                    record.payload, created, record.expiresAt.millisecondsSince1970,
                    record.attempts, record.consumedAt?.millisecondsSince1970, address, country.countryCode,
                ]
            )
            return nil
        }
    }

    func verification(id: String) async throws -> VerificationRecord? {
        try await pool.read { db in try Self.fetch(id: id, db: db) }
    }

    func attempt(
        id: String, at date: Date, failuresSince: Date, pause: @escaping @Sendable ([Date]) -> Date?,
        judge: @escaping @Sendable (VerificationRecord) -> CodeTry, consumedBy: String?
    ) async throws -> CodeAttempt {
        try await pool.write { db in
            guard let record = try Self.fetch(id: id, db: db) else { return .unusable }
            let judged = judge(record)
            if judged == .unusable { return .unusable }
            let scope = record.purpose.failureScope(phone: record.phone)
            let failures = try Int64.fetchAll(
                db, sql: "SELECT failed_at FROM code_failures WHERE phone = ? AND failed_at > ? ORDER BY failed_at",
                arguments: [scope, failuresSince.millisecondsSince1970]
            )
            if let until = pause(failures.map(Date.init(millisecondsSince1970:))) { return .paused(until: until) }
            switch judged {
            case .unusable: return .unusable
            case .replay: return .replayed(record)
            case .right:
                try db.execute(
                    sql: "UPDATE verifications SET consumed_at = ?, consumed_by = ? WHERE id = ?",
                    arguments: [date.millisecondsSince1970, consumedBy, id]
                )
                return .accepted(record)
            case .wrong:
                break
            }
            try db.execute(sql: "UPDATE verifications SET attempts = attempts + 1 WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "DELETE FROM code_failures WHERE phone = ? AND failed_at <= ?",
                arguments: [scope, failuresSince.millisecondsSince1970]
            )
            try db.execute(
                sql: "INSERT INTO code_failures (phone, failed_at) VALUES (?, ?)",
                arguments: [scope, date.millisecondsSince1970]
            )
            let attempts = record.attempts + 1
            return record.consumedAt == nil ? .wrong(attempts: attempts) : .replayMissed(attempts: attempts)
        }
    }

    private static func history(
        phone: String, purpose: CodePurpose, address: String, country: CountryCodeWindow, since: Date, db: Database
    ) throws -> CodeIssueHistory {
        let since = since.millisecondsSince1970
        let purposes = purpose.sharingCaps.map(\.rawValue)
        var arguments: StatementArguments = [phone, since]
        arguments += StatementArguments(purposes)
        let toPhone = try Int64.fetchAll(
            db,
            sql: """
                SELECT created_at FROM verifications
                WHERE phone = ? AND created_at > ? AND purpose IN (\(databaseQuestionMarks(count: purposes.count)))
                ORDER BY created_at
                """,
            arguments: arguments
        )
        let fromAddress = try Int64.fetchAll(
            db, sql: "SELECT created_at FROM verifications WHERE requested_by = ? AND created_at > ? ORDER BY created_at",
            arguments: [address, since]
        )
        let toCountry = try Int64.fetchAll(
            db, sql: """
                SELECT created_at FROM verifications WHERE country_code = ? AND created_at > ?
                ORDER BY created_at DESC LIMIT ?
                """,
            arguments: [country.countryCode, country.since.millisecondsSince1970, country.newest]
        )
        return CodeIssueHistory(
            phone: toPhone.map(Date.init(millisecondsSince1970:)), address: fromAddress.map(Date.init(millisecondsSince1970:)),
            country: toCountry.reversed().map(Date.init(millisecondsSince1970:))
        )
    }

    private static func fetch(id: String, db: Database) throws -> VerificationRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM verifications WHERE id = ?", arguments: [id]),
              let purpose = CodePurpose(rawValue: row["purpose"])
        else { return nil }
        return VerificationRecord(
            id: row["id"], phone: row["phone"], purpose: purpose, codeHash: row["code_hash"], userID: row["user_id"],
            subject: row["subject"], payload: row["payload"], createdAt: row.date("created_at"),
            expiresAt: row.date("expires_at"), attempts: row["attempts"], consumedAt: row.optionalDate("consumed_at"),
            consumedBy: row["consumed_by"]
        )
    }
}
