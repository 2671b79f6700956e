import Foundation
import Logging
import PostgresNIO

/// Top-ups on PostgreSQL, at READ COMMITTED. A completed top-up locks its two accounts in the order of their ids, as a
/// transfer does (the card's funding account sorts before every wallet); the unique (user, key) index makes a key
/// write one top-up however many instances race with it, and completing a pending one locks its row first.
struct PostgresTopUpRepository: TopUpRepository {
    let database: PostgresDatabase

    /// The table (migration `top-ups`): `LedgerSchema.topUps`.
    static let schema = LedgerSchema.topUps

    /// `Ledger.topUp` in one transaction.
    func create(_ order: TopUpOrder) async throws -> TopUpOutcome {
        let topUp = order.topUp
        do {
            return try await database.unitOfWork { work in
                var facts = Ledger.TopUpFacts(earlier: nil, hasWallet: false)
                for try await row in try await work.query("""
                    SELECT * FROM topups WHERE user_id = \(topUp.userID) AND idempotency_key = \(topUp.idempotencyKey)
                    """) {
                    facts.earlier = try Self.record(row)
                }
                if let completion = order.completion {
                    facts.hasWallet = try await work.lockedAccounts(of: topUp, at: completion.at)
                }
                switch Ledger.topUp(order, facts) {
                case .answer(let outcome):
                    return outcome
                case .write(let movement, let outcome):
                    if let movement { try await work.make(movement) }
                    try await work.query("""
                        INSERT INTO topups (id, user_id, card_id, card_brand, card_last4, amount_minor, currency, status,
                                            card_fingerprint, payment_id, action_url, transfer_id, reference,
                                            authorization_id, decline_reason, idempotency_key, request_hash, created_at,
                                            completed_at)
                        VALUES (\(topUp.id), \(topUp.userID), \(topUp.cardID), \(topUp.cardBrand), \(topUp.cardLast4),
                                \(topUp.amountMinor), \(topUp.currency), \(topUp.status.rawValue), \(topUp.cardFingerprint),
                                \(topUp.paymentID), \(topUp.actionURL), \(topUp.transferID),
                                \(topUp.reference), \(topUp.authorizationID), \(topUp.declineReason),
                                \(topUp.idempotencyKey), \(topUp.requestHash), \(topUp.createdAt.millisecondsSince1970),
                                \(topUp.completedAt?.millisecondsSince1970))
                        """)
                    return outcome
                }
            }
        } catch let error where error.isPostgresUniqueViolation {
            // A request with the same key committed between this one's read of the key and its insert: answered from it.
            guard let earlier = try await self.topUp(userID: topUp.userID, idempotencyKey: topUp.idempotencyKey),
                  let answer = Ledger.topUp(order, Ledger.TopUpFacts(earlier: earlier, hasWallet: true)).answer
            else { throw error }
            return answer
        }
    }

    /// `Ledger.complete` in one transaction, the top-up's row locked first.
    func complete(id: String, userID: String, _ completion: TopUpCompletion) async throws -> TopUpRecord? {
        try await database.unitOfWork { work in
            var pending: TopUpRecord?
            for try await row in try await work.query(
                "SELECT * FROM topups WHERE id = \(id) AND user_id = \(userID) FOR UPDATE"
            ) {
                pending = try Self.record(row)
            }
            var hasWallet = false
            if let pending, pending.status == .pending {
                hasWallet = try await work.lockedAccounts(of: pending, at: completion.at)
            }
            switch try Ledger.complete(pending, completion, hasWallet: hasWallet) {
            case .answer(let topUp):
                return topUp
            case .write(let movement, let topUp):
                try await work.make(movement)
                try await work.query("""
                    UPDATE topups SET status = 'completed', transfer_id = \(completion.transferID),
                                      reference = \(completion.reference), authorization_id = \(completion.authorizationID),
                                      completed_at = \(completion.at.millisecondsSince1970), action_url = NULL
                    WHERE id = \(id)
                    """)
                return topUp
            }
        }
    }

    func decline(id: String, userID: String, reason: String, at date: Date) async throws -> TopUpRecord? {
        _ = try await database.write("""
            UPDATE topups SET status = 'declined', decline_reason = \(reason), completed_at = \(date.millisecondsSince1970)
            WHERE id = \(id) AND user_id = \(userID) AND status = 'pending'
            """)
        return try await topUp(id: id, userID: userID)
    }

    func recordPayment(id: String, userID: String, paymentID: String, actionURL: String?) async throws -> TopUpRecord? {
        _ = try await database.write("""
            UPDATE topups SET payment_id = COALESCE(payment_id, \(paymentID)), action_url = \(actionURL)
            WHERE id = \(id) AND user_id = \(userID) AND status = 'pending'
            """)
        return try await topUp(id: id, userID: userID)
    }

    func topUp(paymentID: String) async throws -> TopUpRecord? {
        try await database.rows("SELECT * FROM topups WHERE payment_id = \(paymentID)").first.map(Self.record)
    }

    func totals(userID: String, since: Date) async throws -> TopUpTotals {
        try await Self.totals(database.rows("""
            SELECT COUNT(*), COALESCE(SUM(amount_minor), 0)::BIGINT FROM topups
            WHERE user_id = \(userID) AND created_at >= \(since.millisecondsSince1970) AND status <> 'declined'
            """))
    }

    func totals(cardFingerprint: String, since: Date) async throws -> TopUpTotals {
        try await Self.totals(database.rows("""
            SELECT COUNT(*), COALESCE(SUM(amount_minor), 0)::BIGINT FROM topups
            WHERE card_fingerprint = \(cardFingerprint) AND created_at >= \(since.millisecondsSince1970)
              AND status <> 'declined'
            """))
    }

    private static func totals(_ rows: [PostgresRow]) throws -> TopUpTotals {
        guard let row = rows.first else { return TopUpTotals(count: 0, amountMinor: 0) }
        let (count, amount) = try row.decode((Int64, Int64).self)
        return TopUpTotals(count: Int(count), amountMinor: amount)
    }

    func handledEvent(id: String) async throws -> Bool {
        try await !database.rows("SELECT 1 FROM card_network_events WHERE id = \(id)").isEmpty
    }

    func recordEvent(id: String, at date: Date) async throws {
        _ = try await database.write("""
            INSERT INTO card_network_events (id, received_at) VALUES (\(id), \(date.millisecondsSince1970)) ON CONFLICT DO NOTHING
            """)
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
            cardFingerprint: try optionalText("card_fingerprint"), paymentID: try optionalText("payment_id"),
            actionURL: try optionalText("action_url"),
            transferID: try optionalText("transfer_id"), reference: try optionalText("reference"),
            authorizationID: try optionalText("authorization_id"), declineReason: try optionalText("decline_reason"),
            idempotencyKey: try text("idempotency_key"), requestHash: try text("request_hash"),
            createdAt: Date(millisecondsSince1970: try columns["created_at"].decode(Int64.self)),
            completedAt: try optionalDate("completed_at")
        )
    }
}

extension PostgresUnitOfWork {
    /// Locks the accounts a top-up's money moves between, in the order of their ids as a transfer does (the card's
    /// funding account, opened first when absent, sorts before every wallet); true when the wallet exists.
    func lockedAccounts(of topUp: TopUpRecord, at date: Date) async throws -> Bool {
        let card = Ledger.fundingAccount(of: topUp, at: date)
        let wallet = LedgerAccountID.wallet(userID: topUp.userID, currency: topUp.currency)
        try await open(card, ifAbsent: true)
        return try await lockedBalances([card.id, wallet])[wallet] != nil
    }
}
