import Foundation
import GRDB

struct SQLiteEventRepository: EventRepository {
    let pool: MeteredPool

    func events(userID: String, sessionTokenHash: String, after id: Int64, limit: Int) async throws -> [EventRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT \(EventSchema.selectColumns) \(EventSchema.selectFrom)
                    WHERE e.user_id = ? AND e.id > ? AND (e.session_token_hash IS NULL OR e.session_token_hash = ?)
                    ORDER BY e.id LIMIT ?
                    """),
                arguments: [userID, id, sessionTokenHash, limit]
            ).compactMap { row in Self.record(row, userID: userID) }
        }
    }

    func latestID(userID: String) async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT COALESCE(MAX(id), 0) FROM events WHERE user_id = ?"), arguments: [userID]
            ) ?? 0
        }
    }

    /// Columns by position, in the order of `EventSchema.selectColumns`.
    private static func record(_ row: Row, userID: String) -> EventRecord? {
        let kindName: String = row[1]
        guard let kind = EventRecord.Kind(rawValue: kindName) else { return nil }
        let transactionID: Int64? = row[6]
        return EventRecord(
            id: row[0], kind: kind, balanceMinor: row[2], currency: row[3], unread: row[4], cardID: row[5],
            transaction: transactionID.map { id in
                TransactionRecord(
                    id: id, userID: userID, amountMinor: row[7], currency: row[8], merchant: row[9], category: row[10],
                    createdAt: Date(millisecondsSince1970: row[11]), transferID: row[12], note: row[13], reference: row[14]
                )
            },
            transferKind: row[15]
        )
    }
}

/// Rings the hub for the users whose events a transaction of this process committed: SQLite's writer is in this
/// process, so a commit is seen here (docs/decisions/0156-live-events-delivered-on-commit.md).
final class SQLiteEventCommitObserver: TransactionObserver, @unchecked Sendable {
    // Touched on the writer's queue only.
    private var lowest: Int64?
    private var highest: Int64?
    /// Called on the writer right after the commit, with the ids of the events it wrote and the connection, free to
    /// read (no other transaction can start on it before this returns).
    private let committed: @Sendable (ClosedRange<Int64>, Database) -> Void
    private static let table = "events"

    init(committed: @escaping @Sendable (ClosedRange<Int64>, Database) -> Void) {
        self.committed = committed
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert(let table) = eventKind { return table == Self.table }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        // GRDB also passes on changes SQLite did not announce for a statement, such as the writes of the search index's
        // shadow tables under a statement line's insert: their row ids are not events', and taken in they stretch the
        // range over every event (a scan of the whole table at each commit).
        guard event.tableName == Self.table else { return }
        lowest = min(lowest ?? event.rowID, event.rowID)
        highest = max(highest ?? event.rowID, event.rowID)
    }

    func databaseDidCommit(_ db: Database) {
        if let lowest, let highest { committed(lowest...highest, db) }
        lowest = nil
        highest = nil
    }

    func databaseDidRollback(_ db: Database) {
        lowest = nil
        highest = nil
    }
}

extension SQLiteDatabase {
    /// Rings `hub` and forgets in `sessions` the users of each commit that wrote events, until cancelled. The users are
    /// read on the writer as it commits (a few rows by primary key; no task and no reader a commit), and only while a
    /// stream is open or a session is kept: a stream subscribes before it reads, so one opened later reads these
    /// events itself, and a session read later is read after the commit. The writer is in this process, so `sessions`
    /// is live once the observer is in place.
    func deliverEvents(to hub: EventHub, sessions: SessionCache) async {
        let pool = metered
        let observer = SQLiteEventCommitObserver { ids, db in
            guard hub.openStreams > 0 || sessions.count > 0 else {
                // Nothing to ring and nothing kept; a session read before this commit is still not kept after it.
                sessions.forgetEverything()
                return
            }
            guard let users = try? String.fetchAll(
                db.cachedStatement(sql: "SELECT DISTINCT user_id FROM events WHERE id BETWEEN ? AND ?"),
                arguments: [ids.lowerBound, ids.upperBound]
            ) else {
                sessions.forgetEverything()
                return
            }
            for user in users {
                sessions.forget(userID: user)
                hub.ring(userID: user)
            }
        }
        do {
            try await pool.writeWithoutTransaction { db in db.add(transactionObserver: observer, extent: .observerLifetime) }
        } catch {
            return
        }
        sessions.setLive(true)
        defer { sessions.setLive(false) }
        // Held here until the server stops (the pool keeps only a weak reference): a sleep that only cancellation ends.
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(86_400)) }
        withExtendedLifetime(observer) {}
    }
}
