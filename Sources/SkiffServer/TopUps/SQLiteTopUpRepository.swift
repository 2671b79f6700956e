import Foundation
import GRDB

/// Top-ups on SQLite. Every write is one `BEGIN IMMEDIATE` transaction, like a transfer's: the key's check, the
/// top-up's row and the money's move happen under the one write lock.
struct SQLiteTopUpRepository: TopUpRepository {
    let pool: MeteredPool

    /// The table (migration `top-ups`): `LedgerSchema.topUps`.
    static let schema = LedgerSchema.topUps.joined(separator: ";\n")

    func create(_ order: TopUpOrder) async throws -> TopUpOutcome {
        try await pool.writeImmediately { db in try Self.create(order, db) }
    }

    /// `Ledger.topUp` in one `BEGIN IMMEDIATE` transaction.
    private static func create(_ order: TopUpOrder, _ db: Database) throws -> TopUpOutcome {
        let work = SQLiteUnitOfWork(db: db)
        let topUp = order.topUp
        let facts = Ledger.TopUpFacts(
            earlier: try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM topups WHERE user_id = ? AND idempotency_key = ?"),
                arguments: [topUp.userID, topUp.idempotencyKey]
            ).map(record),
            hasWallet: try work.balance(LedgerAccountID.wallet(userID: topUp.userID, currency: topUp.currency)) != nil
        )
        switch Ledger.topUp(order, facts) {
        case .answer(let outcome):
            return outcome
        case .write(let movement, let outcome):
            if let movement { try work.make(movement) }
            try db.cachedStatement(sql: """
                INSERT INTO topups (id, user_id, card_id, card_brand, card_last4, amount_minor, currency, status,
                                    card_fingerprint, payment_id, action_url, transfer_id, reference, authorization_id,
                                    decline_reason, idempotency_key, request_hash, created_at, completed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    topUp.id, topUp.userID, topUp.cardID, topUp.cardBrand, topUp.cardLast4, topUp.amountMinor,
                    topUp.currency, topUp.status.rawValue, topUp.cardFingerprint, topUp.paymentID, topUp.actionURL,
                    topUp.transferID, topUp.reference,
                    topUp.authorizationID, topUp.declineReason, topUp.idempotencyKey, topUp.requestHash,
                    topUp.createdAt.millisecondsSince1970, topUp.completedAt?.millisecondsSince1970,
                ])
            return outcome
        }
    }

    /// `Ledger.complete` in one `BEGIN IMMEDIATE` transaction.
    func complete(id: String, userID: String, _ completion: TopUpCompletion) async throws -> TopUpRecord? {
        try await pool.writeImmediately { db in
            let work = SQLiteUnitOfWork(db: db)
            let pending = try Self.fetch(id: id, userID: userID, db)
            let wallet = pending.map { LedgerAccountID.wallet(userID: $0.userID, currency: $0.currency) }
            switch try Ledger.complete(pending, completion, hasWallet: try wallet.flatMap(work.balance) != nil) {
            case .answer(let topUp):
                return topUp
            case .write(let movement, let topUp):
                try work.make(movement)
                try db.cachedStatement(sql: """
                    UPDATE topups SET status = 'completed', transfer_id = ?, reference = ?, authorization_id = ?,
                                      completed_at = ?, action_url = NULL
                    WHERE id = ?
                    """).execute(arguments: [
                        completion.transferID, completion.reference, completion.authorizationID,
                        completion.at.millisecondsSince1970, id,
                    ])
                return topUp
            }
        }
    }

    func decline(id: String, userID: String, reason: String, at date: Date) async throws -> TopUpRecord? {
        try await pool.write { db in
            try db.cachedStatement(sql: """
                UPDATE topups SET status = 'declined', decline_reason = ?, completed_at = ?
                WHERE id = ? AND user_id = ? AND status = 'pending'
                """).execute(arguments: [reason, date.millisecondsSince1970, id, userID])
            return try Self.fetch(id: id, userID: userID, db)
        }
    }

    func recordPayment(id: String, userID: String, paymentID: String, actionURL: String?) async throws -> TopUpRecord? {
        try await pool.write { db in
            try db.cachedStatement(sql: """
                UPDATE topups SET payment_id = COALESCE(payment_id, ?), action_url = ?
                WHERE id = ? AND user_id = ? AND status = 'pending'
                """).execute(arguments: [paymentID, actionURL, id, userID])
            return try Self.fetch(id: id, userID: userID, db)
        }
    }

    func topUp(paymentID: String) async throws -> TopUpRecord? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM topups WHERE payment_id = ?"), arguments: [paymentID])
                .map(Self.record)
        }
    }

    func totals(userID: String, since: Date) async throws -> TopUpTotals {
        try await totals(where: "user_id = ?", userID, since: since)
    }

    func totals(cardFingerprint: String, since: Date) async throws -> TopUpTotals {
        try await totals(where: "card_fingerprint = ?", cardFingerprint, since: since)
    }

    private func totals(where condition: String, _ value: String, since: Date) async throws -> TopUpTotals {
        try await pool.read { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) AS count, COALESCE(SUM(amount_minor), 0) AS amount FROM topups
                WHERE \(condition) AND created_at >= ? AND status <> 'declined'
                """), arguments: [value, since.millisecondsSince1970])
            return TopUpTotals(count: row?["count"] ?? 0, amountMinor: row?["amount"] ?? 0)
        }
    }

    func handledEvent(id: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM card_network_events WHERE id = ?"), arguments: [id]) ?? false
        }
    }

    func recordEvent(id: String, at date: Date) async throws {
        try await pool.write { db in
            try db.cachedStatement(sql: "INSERT INTO card_network_events (id, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
                .execute(arguments: [id, date.millisecondsSince1970])
        }
    }

    func topUp(id: String, userID: String) async throws -> TopUpRecord? {
        try await pool.read { db in try Self.fetch(id: id, userID: userID, db) }
    }

    func topUp(userID: String, idempotencyKey: String) async throws -> TopUpRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM topups WHERE user_id = ? AND idempotency_key = ?"),
                arguments: [userID, idempotencyKey]
            ).map(Self.record)
        }
    }

    private static func fetch(id: String, userID: String, _ db: Database) throws -> TopUpRecord? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM topups WHERE id = ? AND user_id = ?"), arguments: [id, userID]
        ).map(record)
    }

    static func record(_ row: Row) -> TopUpRecord {
        TopUpRecord(
            id: row["id"], userID: row["user_id"], cardID: row["card_id"], cardBrand: row["card_brand"],
            cardLast4: row["card_last4"], amountMinor: row["amount_minor"], currency: row["currency"],
            status: TopUpStatus(rawValue: row["status"]) ?? .pending, cardFingerprint: row["card_fingerprint"],
            paymentID: row["payment_id"], actionURL: row["action_url"], transferID: row["transfer_id"],
            reference: row["reference"], authorizationID: row["authorization_id"], declineReason: row["decline_reason"],
            idempotencyKey: row["idempotency_key"], requestHash: row["request_hash"], createdAt: row.date("created_at"),
            completedAt: row.optionalDate("completed_at")
        )
    }
}
