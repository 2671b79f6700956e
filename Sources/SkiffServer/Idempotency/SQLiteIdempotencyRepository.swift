import Foundation
import GRDB

struct SQLiteIdempotencyRepository: IdempotencyRepository {
    let pool: MeteredPool

    func begin(
        scope: String, key: String, requestHash: String, at date: Date, expiredBefore: Date, abandonedBefore: Date
    ) async throws -> IdempotencyBegin {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM idempotency_keys WHERE created_at < ? OR (status IS NULL AND created_at < ?)",
                arguments: [expiredBefore.millisecondsSince1970, abandonedBefore.millisecondsSince1970]
            )
            if let row = try Row.fetchOne(
                db, sql: "SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?", arguments: [scope, key]
            ) {
                guard row["request_hash"] == requestHash else { return .mismatch }
                guard let status: Int = row["status"] else { return .inFlight }
                return .completed(StoredResponse(
                    status: status, contentType: row["content_type"], location: row["location"], body: row["body"] ?? Data()
                ))
            }
            try db.execute(
                sql: "INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [scope, key, requestHash, date.millisecondsSince1970]
            )
            return .started
        }
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE idempotency_keys SET status = ?, content_type = ?, location = ?, body = ?
                    WHERE scope = ? AND key = ?
                    """,
                arguments: [response.status, response.contentType, response.location, response.body, scope, key]
            )
        }
    }

    func abandon(scope: String, key: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL", arguments: [scope, key]
            )
        }
    }
}
