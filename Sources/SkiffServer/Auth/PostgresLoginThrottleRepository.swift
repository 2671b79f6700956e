import Foundation
import PostgresNIO

struct PostgresLoginThrottleRepository: LoginThrottleRepository {
    let database: PostgresDatabase

    /// The number's row is made if missing and then locked (`FOR UPDATE`) until the count is written, so parallel
    /// attempts are counted one after the other.
    func beginAttempt(phone: String, at date: Date, lockout: @escaping @Sendable (Int) -> Date?) async throws -> Date? {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query(
                "INSERT INTO login_throttle (phone, failures) VALUES (\(phone), 0) ON CONFLICT (phone) DO NOTHING",
                logger: logger
            )
            let rows = try await connection.query(
                "SELECT failures, locked_until FROM login_throttle WHERE phone = \(phone) FOR UPDATE", logger: logger
            ).collect()
            let (current, lockedUntil) = try rows.first?.decode((Int, Int64?).self) ?? (0, nil)
            if let lockedUntil, lockedUntil > date.millisecondsSince1970 { return Date(millisecondsSince1970: lockedUntil) }
            let failures = current + 1
            try await connection.query("""
                UPDATE login_throttle SET failures = \(failures), locked_until = \(lockout(failures)?.millisecondsSince1970),
                    last_failed_at = \(date.millisecondsSince1970)
                WHERE phone = \(phone)
                """, logger: logger)
            return nil
        }
    }

    func reset(phone: String) async throws {
        _ = try await database.write("DELETE FROM login_throttle WHERE phone = \(phone)")
    }
}
