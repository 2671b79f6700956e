import Foundation
import Logging
import PostgresNIO

struct PostgresEventRepository: EventRepository {
    let database: PostgresDatabase

    func events(userID: String, sessionTokenHash: String, after id: Int64, limit: Int) async throws -> [EventRecord] {
        try await database.rows("""
            SELECT \(unescaped: EventSchema.selectColumns) \(unescaped: EventSchema.selectFrom)
            WHERE e.user_id = \(userID) AND e.id > \(id)
              AND (e.session_token_hash IS NULL OR e.session_token_hash = \(sessionTokenHash))
            ORDER BY e.id LIMIT \(limit)
            """).compactMap { row in
            let line = try row.decode(
                (Int64, String, Int64?, String?, Int?, String?, Int64?, Int64?, String?, String?, String?, Int64?, String?,
                 String?, String?, String?).self
            )
            guard let kind = EventRecord.Kind(rawValue: line.1) else { return nil }
            return EventRecord(
                id: line.0, kind: kind, balanceMinor: line.2, currency: line.3, unread: line.4, cardID: line.5,
                transaction: line.6.map { transactionID in
                    TransactionRecord(
                        id: transactionID, userID: userID, amountMinor: line.7 ?? 0, currency: line.8 ?? "",
                        merchant: line.9 ?? "", category: line.10 ?? "",
                        createdAt: Date(millisecondsSince1970: line.11 ?? 0), transferID: line.12, note: line.13,
                        reference: line.14
                    )
                },
                transferKind: line.15
            )
        }
    }

    func latestID(userID: String) async throws -> Int64 {
        try await database.rows("SELECT COALESCE(MAX(id), 0)::BIGINT FROM events WHERE user_id = \(userID)")
            .first?.decode(Int64.self) ?? 0
    }
}

extension PostgresDatabase {
    /// Listens on `EventSchema.channel` on one pooled connection, held for the server's life, and rings `hub` for the
    /// user each notification names (sent at the commit of any instance's transaction that wrote events). After the
    /// connection is lost it listens again, waiting 1 s doubling to 30 s (while the database is being followed to
    /// another server, `PostgresPrimary`'s half second), and rings every stream, which reads what it missed from the
    /// table (docs/decisions/0156-live-events-delivered-on-commit.md): a failover loses no event.
    ///
    /// `sessions` is live only while listening: a session kept is forgotten when its user's notification comes.
    func deliverEvents(to hub: EventHub, sessions: SessionCache) async {
        var wait = Duration.seconds(1)
        while !Task.isCancelled {
            let began = ContinuousClock.now
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: EventSchema.channel) { notifications in
                        // Listening now: whatever committed while nobody listened is read by every stream, and no
                        // session read before now is served.
                        sessions.setLive(true)
                        hub.ringAll()
                        defer { sessions.setLive(false) }
                        for try await notification in notifications {
                            sessions.forget(userID: notification.payload)
                            hub.ring(userID: notification.payload)
                        }
                    }
                }
            } catch is DatabaseUnavailable {
                try? await Task.sleep(for: PostgresPrimary.checkInterval)
                continue
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for live events failed; listening again", metadata: [
                    "error": "\(type(of: error))", "retryInSeconds": "\(wait.components.seconds)",
                ])
            }
            // A listener that held for a while starts the waits over.
            if ContinuousClock.now - began > .seconds(60) { wait = .seconds(1) }
            try? await Task.sleep(for: wait)
            wait = min(wait * 2, .seconds(30))
        }
    }
}
