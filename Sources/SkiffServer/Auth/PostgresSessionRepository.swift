import Foundation
import PostgresNIO

struct PostgresSessionRepository: SessionRepository {
    let database: PostgresDatabase

    func create(_ session: SessionRecord) async throws {
        _ = try await database.write("""
            INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, revoked_at, locked_at)
            VALUES (\(session.tokenHash), \(session.userID), \(session.createdAt.millisecondsSince1970),
                    \(session.lastUsedAt.millisecondsSince1970), \(session.expiresAt.millisecondsSince1970),
                    \(session.revokedAt?.millisecondsSince1970), \(session.lockedAt?.millisecondsSince1970))
            """)
    }

    func session(tokenHash: String) async throws -> SessionRecord? {
        try await database.rows(SessionByHash(tokenHash: tokenHash)).first.map { row in
            let (tokenHash, userID, createdAt, lastUsedAt, expiresAt, revokedAt, lockedAt) =
                try row.decode((String, String, Int64, Int64, Int64, Int64?, Int64?).self)
            return SessionRecord(
                tokenHash: tokenHash, userID: userID, createdAt: Date(millisecondsSince1970: createdAt),
                lastUsedAt: Date(millisecondsSince1970: lastUsedAt), expiresAt: Date(millisecondsSince1970: expiresAt),
                revokedAt: revokedAt.map(Date.init(millisecondsSince1970:)),
                lockedAt: lockedAt.map(Date.init(millisecondsSince1970:))
            )
        }
    }

    func touch(tokenHash: String, at date: Date) async throws {
        _ = try await database.write("""
            UPDATE sessions SET last_used_at = GREATEST(last_used_at, \(date.millisecondsSince1970))
            WHERE token_hash = \(tokenHash)
            """)
    }

    func revoke(tokenHash: String, at date: Date) async throws {
        _ = try await database.write("""
            UPDATE sessions SET revoked_at = \(date.millisecondsSince1970)
            WHERE token_hash = \(tokenHash) AND revoked_at IS NULL
            """)
    }

    func lock(tokenHash: String, at date: Date, unusedSince: Date?) async throws {
        let unusedSince = unusedSince?.millisecondsSince1970
        _ = try await database.write("""
            UPDATE sessions SET locked_at = \(date.millisecondsSince1970)
            WHERE token_hash = \(tokenHash) AND locked_at IS NULL
              AND (\(unusedSince)::BIGINT IS NULL OR last_used_at <= \(unusedSince))
            """)
    }

    func unlock(tokenHash: String, at date: Date) async throws {
        _ = try await database.write("""
            UPDATE sessions SET locked_at = NULL, last_used_at = GREATEST(last_used_at, \(date.millisecondsSince1970))
            WHERE token_hash = \(tokenHash)
            """)
    }

    func activeCount(now: Date, usedAfter: Date) async throws -> Int {
        let rows = try await database.rows("""
            SELECT COUNT(*) FROM sessions WHERE revoked_at IS NULL
              AND expires_at > \(now.millisecondsSince1970) AND last_used_at > \(usedAfter.millisecondsSince1970)
            """)
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }
}

/// A session by its token's hash: prepared, as a request whose session is not kept reads it with this.
private struct SessionByHash: PostgresStatement {
    static let sql = """
        SELECT token_hash, user_id, created_at, last_used_at, expires_at, revoked_at, locked_at
        FROM sessions WHERE token_hash = $1::TEXT
        """
    static let bindingTypes: [PostgresDataType] = [.text]
    var bindings = PostgresBindings()

    init(tokenHash: String) {
        bindings.append(tokenHash)
    }
}
