import Foundation
import GRDB

/// Top-ups on SQLite. Every write is one `BEGIN IMMEDIATE` transaction, like a transfer's: the key's check, the
/// top-up's row and the money's move happen under the one write lock.
struct SQLiteTopUpRepository: TopUpRepository {
    let pool: MeteredPool

    /// The table (migration v13-topups): `LedgerSchema.topUps`.
    static let schema = LedgerSchema.topUps.joined(separator: ";\n")

    func create(_ order: TopUpOrder) async throws -> TopUpOutcome {
        try await pool.writeWithoutTransaction { db in
            var outcome = TopUpOutcome.keyReused
            try db.inTransaction(.immediate) {
                outcome = try Self.create(order, db)
                if case .made = outcome { return .commit }
                return .rollback
            }
            return outcome
        }
    }

    private static func create(_ order: TopUpOrder, _ db: Database) throws -> TopUpOutcome {
        let topUp = order.topUp
        if let earlier = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM topups WHERE user_id = ? AND idempotency_key = ?"),
            arguments: [topUp.userID, topUp.idempotencyKey]
        ).map(record) {
            return earlier.requestHash == topUp.requestHash ? .replayed(earlier) : .keyReused
        }
        if let completion = order.completion {
            guard try move(topUp, completion, db) else { return .noWallet }
        }
        try db.cachedStatement(sql: """
            INSERT INTO topups (id, user_id, card_id, card_brand, card_last4, amount_minor, currency, status,
                                verification_id, verification_expires_at, transfer_id, reference, authorization_id,
                                decline_reason, idempotency_key, request_hash, created_at, completed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                topUp.id, topUp.userID, topUp.cardID, topUp.cardBrand, topUp.cardLast4, topUp.amountMinor,
                topUp.currency, topUp.status.rawValue, topUp.verificationID,
                topUp.verificationExpiresAt?.millisecondsSince1970, topUp.transferID, topUp.reference,
                topUp.authorizationID, topUp.declineReason, topUp.idempotencyKey, topUp.requestHash,
                topUp.createdAt.millisecondsSince1970, topUp.completedAt?.millisecondsSince1970,
            ])
        return .made(topUp)
    }

    /// Moves the money of `topUp`: the card's funding account (opened on first use) pays the wallet, with the
    /// transfer, its postings, the statement line and the notification. False, writing nothing, without a wallet.
    private static func move(_ topUp: TopUpRecord, _ completion: TopUpCompletion, _ db: Database) throws -> Bool {
        let wallet = LedgerAccountID.wallet(userID: topUp.userID, currency: topUp.currency)
        let card = LedgerAccountID.card(cardID: topUp.cardID, currency: topUp.currency)
        guard try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT balance_minor FROM ledger_accounts WHERE id = ?"), arguments: [wallet]
        ) != nil else { return false }
        try db.cachedStatement(sql: """
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
            VALUES (?, 'card', ?, ?, 0, ?) ON CONFLICT (id) DO NOTHING
            """).execute(arguments: [card, topUp.userID, topUp.currency, completion.at.millisecondsSince1970])
        try SQLiteLedgerRepository.credit(card, -topUp.amountMinor, db)
        try SQLiteLedgerRepository.credit(wallet, topUp.amountMinor, db)
        try SQLiteLedgerRepository.record(
            TransferRecord(
                id: completion.transferID, reference: completion.reference, kind: .topUp, fromAccount: card,
                toAccount: wallet, payerUserID: nil, payeeUserID: topUp.userID, amountMinor: topUp.amountMinor,
                currency: topUp.currency, note: nil, createdAt: completion.at
            ),
            idempotencyKey: nil, requestHash: nil, lines: [completion.line], db
        )
        try SQLiteNotificationRepository.insert(completion.notification, db: db)
        return true
    }

    func complete(id: String, userID: String, _ completion: TopUpCompletion) async throws -> TopUpRecord? {
        try await pool.writeWithoutTransaction { db in
            var result: TopUpRecord?
            try db.inTransaction(.immediate) {
                guard var topUp = try Self.fetch(id: id, userID: userID, db) else { return .rollback }
                result = topUp
                guard topUp.status == .pending else { return .rollback }
                guard try Self.move(topUp, completion, db) else { throw NoWallet() }
                try db.cachedStatement(sql: """
                    UPDATE topups SET status = 'completed', transfer_id = ?, reference = ?, authorization_id = ?,
                                      completed_at = ?
                    WHERE id = ?
                    """).execute(arguments: [
                        completion.transferID, completion.reference, completion.authorizationID,
                        completion.at.millisecondsSince1970, id,
                    ])
                topUp.status = .completed
                topUp.transferID = completion.transferID
                topUp.reference = completion.reference
                topUp.authorizationID = completion.authorizationID
                topUp.completedAt = completion.at
                result = topUp
                return .commit
            }
            return result
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
            status: TopUpStatus(rawValue: row["status"]) ?? .pending, verificationID: row["verification_id"],
            verificationExpiresAt: row.optionalDate("verification_expires_at"), transferID: row["transfer_id"],
            reference: row["reference"], authorizationID: row["authorization_id"], declineReason: row["decline_reason"],
            idempotencyKey: row["idempotency_key"], requestHash: row["request_hash"], createdAt: row.date("created_at"),
            completedAt: row.optionalDate("completed_at")
        )
    }
}

/// A pending top-up's user has no wallet in its currency: the service checks the currency first, so this is a bug.
struct NoWallet: Error {}
