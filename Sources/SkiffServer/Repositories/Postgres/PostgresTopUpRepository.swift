import Foundation
import Logging
import PostgresNIO

/// Top-ups on PostgreSQL, at READ COMMITTED. A completed top-up locks its two accounts in the order of their ids, as a
/// transfer does (the card's funding account sorts before every wallet); the unique (user, key) index makes a key
/// write one top-up however many instances race with it, and completing a pending one locks its row first.
struct PostgresTopUpRepository: TopUpRepository {
    let database: PostgresDatabase

    /// The table (migration 11): `LedgerSchema.topUps`.
    static let schema = LedgerSchema.topUps

    /// Carries an outcome that writes nothing out of the transaction, so that it rolls back.
    private struct Refused: Error {
        var outcome: TopUpOutcome
    }

    func create(_ order: TopUpOrder) async throws -> TopUpOutcome {
        let logger = database.logger
        do {
            return try await database.transaction { connection in
                try await Self.create(order, connection, logger)
            }
        } catch let refused as Refused {
            return refused.outcome
        } catch let error where error.isPostgresUniqueViolation {
            // A request with the same key committed between this one's check and its insert: answered from it.
            guard let earlier = try await topUp(userID: order.topUp.userID, idempotencyKey: order.topUp.idempotencyKey) else {
                throw error
            }
            return earlier.requestHash == order.topUp.requestHash ? .replayed(earlier) : .keyReused
        }
    }

    private static func create(_ order: TopUpOrder, _ connection: PostgresConnection, _ logger: Logger) async throws -> TopUpOutcome {
        let topUp = order.topUp
        for try await row in try await connection.query("""
            SELECT * FROM topups WHERE user_id = \(topUp.userID) AND idempotency_key = \(topUp.idempotencyKey)
            """, logger: logger) {
            let earlier = try record(row)
            throw Refused(outcome: earlier.requestHash == topUp.requestHash ? .replayed(earlier) : .keyReused)
        }
        if let completion = order.completion {
            guard try await move(topUp, completion, connection, logger) else { throw Refused(outcome: .noWallet) }
        }
        try await connection.query("""
            INSERT INTO topups (id, user_id, card_id, card_brand, card_last4, amount_minor, currency, status,
                                verification_id, verification_expires_at, transfer_id, reference, authorization_id,
                                decline_reason, idempotency_key, request_hash, created_at, completed_at)
            VALUES (\(topUp.id), \(topUp.userID), \(topUp.cardID), \(topUp.cardBrand), \(topUp.cardLast4),
                    \(topUp.amountMinor), \(topUp.currency), \(topUp.status.rawValue), \(topUp.verificationID),
                    \(topUp.verificationExpiresAt?.millisecondsSince1970), \(topUp.transferID), \(topUp.reference),
                    \(topUp.authorizationID), \(topUp.declineReason), \(topUp.idempotencyKey), \(topUp.requestHash),
                    \(topUp.createdAt.millisecondsSince1970), \(topUp.completedAt?.millisecondsSince1970))
            """, logger: logger)
        return .made(topUp)
    }

    /// Moves the money of `topUp`: the card's funding account (opened on first use) pays the wallet, both locked in
    /// the order of their ids, with the transfer, its postings, the statement line and the notification. False
    /// without a wallet.
    private static func move(
        _ topUp: TopUpRecord, _ completion: TopUpCompletion, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Bool {
        let wallet = LedgerAccountID.wallet(userID: topUp.userID, currency: topUp.currency)
        let card = LedgerAccountID.card(cardID: topUp.cardID, currency: topUp.currency)
        try await connection.query("""
            INSERT INTO ledger_accounts (id, kind, user_id, currency, balance_minor, created_at)
            VALUES (\(card), 'card', \(topUp.userID), \(topUp.currency), 0, \(completion.at.millisecondsSince1970))
            ON CONFLICT (id) DO NOTHING
            """, logger: logger)
        var locked: Set<String> = []
        for try await id in try await connection.query(
            "SELECT id FROM ledger_accounts WHERE id IN (\(card), \(wallet)) ORDER BY id FOR UPDATE", logger: logger
        ).decode(String.self) {
            locked.insert(id)
        }
        guard locked.contains(wallet) else { return false }
        try await connection.query(PostgresLedgerRepository.creditQuery(card, -topUp.amountMinor), logger: logger)
        try await connection.query(PostgresLedgerRepository.creditQuery(wallet, topUp.amountMinor), logger: logger)
        try await PostgresLedgerRepository.record(
            TransferRecord(
                id: completion.transferID, reference: completion.reference, kind: .topUp, fromAccount: card,
                toAccount: wallet, payerUserID: nil, payeeUserID: topUp.userID, amountMinor: topUp.amountMinor,
                currency: topUp.currency, note: nil, createdAt: completion.at
            ),
            idempotencyKey: nil, requestHash: nil, lines: [completion.line], connection, logger
        )
        try await connection.query(PostgresNotificationRepository.insertQuery(completion.notification), logger: logger)
        return true
    }

    func complete(id: String, userID: String, _ completion: TopUpCompletion) async throws -> TopUpRecord? {
        let logger = database.logger
        return try await database.transaction { connection in
            var found: TopUpRecord?
            for try await row in try await connection.query(
                "SELECT * FROM topups WHERE id = \(id) AND user_id = \(userID) FOR UPDATE", logger: logger
            ) {
                found = try Self.record(row)
            }
            guard var topUp = found, topUp.status == .pending else { return found }
            guard try await Self.move(topUp, completion, connection, logger) else { throw NoWallet() }
            try await connection.query("""
                UPDATE topups SET status = 'completed', transfer_id = \(completion.transferID),
                                  reference = \(completion.reference), authorization_id = \(completion.authorizationID),
                                  completed_at = \(completion.at.millisecondsSince1970)
                WHERE id = \(id)
                """, logger: logger)
            topUp.status = .completed
            topUp.transferID = completion.transferID
            topUp.reference = completion.reference
            topUp.authorizationID = completion.authorizationID
            topUp.completedAt = completion.at
            return topUp
        }
    }

    func decline(id: String, userID: String, reason: String, at date: Date) async throws -> TopUpRecord? {
        _ = try await database.rows("""
            UPDATE topups SET status = 'declined', decline_reason = \(reason), completed_at = \(date.millisecondsSince1970)
            WHERE id = \(id) AND user_id = \(userID) AND status = 'pending'
            """)
        return try await topUp(id: id, userID: userID)
    }

    func topUp(id: String, userID: String) async throws -> TopUpRecord? {
        try await database.rows("SELECT * FROM topups WHERE id = \(id) AND user_id = \(userID)").first.map(Self.record)
    }

    func topUp(userID: String, idempotencyKey: String) async throws -> TopUpRecord? {
        try await database.rows(
            "SELECT * FROM topups WHERE user_id = \(userID) AND idempotency_key = \(idempotencyKey)"
        ).first.map(Self.record)
    }

    static func record(_ row: PostgresRow) throws -> TopUpRecord {
        let columns = row.makeRandomAccess()
        func text(_ name: String) throws -> String { try columns[name].decode(String.self) }
        func optionalText(_ name: String) throws -> String? { try columns[name].decode(String?.self) }
        func optionalDate(_ name: String) throws -> Date? {
            try columns[name].decode(Int64?.self).map(Date.init(millisecondsSince1970:))
        }
        return TopUpRecord(
            id: try text("id"), userID: try text("user_id"), cardID: try text("card_id"),
            cardBrand: try text("card_brand"), cardLast4: try text("card_last4"),
            amountMinor: try columns["amount_minor"].decode(Int64.self), currency: try text("currency"),
            status: TopUpStatus(rawValue: try text("status")) ?? .pending,
            verificationID: try optionalText("verification_id"),
            verificationExpiresAt: try optionalDate("verification_expires_at"),
            transferID: try optionalText("transfer_id"), reference: try optionalText("reference"),
            authorizationID: try optionalText("authorization_id"), declineReason: try optionalText("decline_reason"),
            idempotencyKey: try text("idempotency_key"), requestHash: try text("request_hash"),
            createdAt: Date(millisecondsSince1970: try columns["created_at"].decode(Int64.self)),
            completedAt: try optionalDate("completed_at")
        )
    }
}
