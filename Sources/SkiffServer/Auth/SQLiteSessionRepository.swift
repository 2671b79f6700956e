import Foundation
import GRDB

struct SQLiteSessionRepository: SessionRepository {
    let pool: MeteredPool

    func create(_ session: SessionRecord) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, revoked_at, locked_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    session.tokenHash, session.userID, session.createdAt.millisecondsSince1970,
                    session.lastUsedAt.millisecondsSince1970, session.expiresAt.millisecondsSince1970,
                    session.revokedAt?.millisecondsSince1970, session.lockedAt?.millisecondsSince1970,
                ]
            )
        }
    }

    func session(tokenHash: String) async throws -> SessionRecord? {
        // One statement: no transaction needed around it, and its prepared form is kept per connection.
        try await pool.unsafeRead { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM sessions WHERE token_hash = ?"), arguments: [tokenHash]
            ).map { row in
                SessionRecord(
                    tokenHash: row["token_hash"], userID: row["user_id"], createdAt: row.date("created_at"),
                    lastUsedAt: row.date("last_used_at"), expiresAt: row.date("expires_at"),
                    revokedAt: row.optionalDate("revoked_at"), lockedAt: row.optionalDate("locked_at")
                )
            }
        }
    }

    func touch(tokenHash: String, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE sessions SET last_used_at = max(last_used_at, ?) WHERE token_hash = ?",
                arguments: [date.millisecondsSince1970, tokenHash]
            )
        }
    }

    func revoke(tokenHash: String, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [date.millisecondsSince1970, tokenHash]
            )
        }
    }

    func lock(tokenHash: String, at date: Date, unusedSince: Date?) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE sessions SET locked_at = ?
                    WHERE token_hash = ? AND locked_at IS NULL AND (? IS NULL OR last_used_at <= ?)
                    """,
                arguments: [
                    date.millisecondsSince1970, tokenHash, unusedSince?.millisecondsSince1970,
                    unusedSince?.millisecondsSince1970,
                ]
            )
        }
    }

    func unlock(tokenHash: String, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE sessions SET locked_at = NULL, last_used_at = max(last_used_at, ?) WHERE token_hash = ?",
                arguments: [date.millisecondsSince1970, tokenHash]
            )
        }
    }

    func activeCount(now: Date, usedAfter: Date) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sessions WHERE revoked_at IS NULL AND expires_at > ? AND last_used_at > ?",
                arguments: [now.millisecondsSince1970, usedAfter.millisecondsSince1970]
            ) ?? 0
        }
    }
}
