import Foundation
import GRDB
import SkiffCore

struct SQLiteLoginThrottleRepository: LoginThrottleRepository {
    let pool: MeteredPool

    func beginAttempt(phone: String, at date: Date, lockout: @escaping @Sendable (Int) -> Date?) async throws -> Date? {
        try await pool.write { db in
            let current = try Self.fetch(phone: phone, db: db)
            if let lockedUntil = current?.lockedUntil, lockedUntil > date { return lockedUntil }
            let failures = (current?.failures ?? 0) + 1
            try db.execute(
                sql: "INSERT OR REPLACE INTO login_throttle (phone, failures, locked_until, last_failed_at) VALUES (?, ?, ?, ?)",
                arguments: [phone, failures, lockout(failures)?.millisecondsSince1970, date.millisecondsSince1970]
            )
            return nil
        }
    }

    func reset(phone: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM login_throttle WHERE phone = ?", arguments: [phone])
        }
    }

    private static func fetch(phone: String, db: Database) throws -> LoginThrottleRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM login_throttle WHERE phone = ?", arguments: [phone]).map { row in
            LoginThrottleRecord(phone: row["phone"], failures: row["failures"], lockedUntil: row.optionalDate("locked_until"))
        }
    }
}
