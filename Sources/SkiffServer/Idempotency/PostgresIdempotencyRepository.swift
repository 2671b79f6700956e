import Foundation
import PostgresNIO

struct PostgresIdempotencyRepository: IdempotencyRepository {
    let database: PostgresDatabase

    /// The reservation is one `INSERT … ON CONFLICT DO NOTHING` on the (scope, key) primary key: of parallel
    /// requests with one key, exactly one inserts. The others read the row that won.
    func begin(
        scope: String, key: String, requestHash: String, at date: Date, expiredBefore: Date, abandonedBefore: Date
    ) async throws -> IdempotencyBegin {
        _ = try await database.write("""
            DELETE FROM idempotency_keys
            WHERE created_at < \(expiredBefore.millisecondsSince1970)
               OR (status IS NULL AND created_at < \(abandonedBefore.millisecondsSince1970))
            """)
        // A row read as present can be released (abandoned) before it is read again: then try the insert again.
        while true {
            let reserved = try await database.write("""
                INSERT INTO idempotency_keys (scope, key, request_hash, created_at)
                VALUES (\(scope), \(key), \(requestHash), \(date.millisecondsSince1970))
                ON CONFLICT (scope, key) DO NOTHING RETURNING key
                """)
            if !reserved.isEmpty { return .started }
            let rows = try await database.rows("""
                SELECT request_hash, status, content_type, location, body FROM idempotency_keys
                WHERE scope = \(scope) AND key = \(key)
                """)
            guard let row = rows.first else { continue }
            let (storedHash, status, contentType, location, body) = try row.decode((String, Int?, String?, String?, Data?).self)
            guard storedHash == requestHash else { return .mismatch }
            guard let status else { return .inFlight }
            return .completed(StoredResponse(status: status, contentType: contentType, location: location, body: body ?? Data()))
        }
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        _ = try await database.write("""
            UPDATE idempotency_keys SET status = \(response.status), content_type = \(response.contentType),
                                        location = \(response.location), body = \(response.body)
            WHERE scope = \(scope) AND key = \(key)
            """)
    }

    func abandon(scope: String, key: String) async throws {
        _ = try await database.write("DELETE FROM idempotency_keys WHERE scope = \(scope) AND key = \(key) AND status IS NULL")
    }
}
