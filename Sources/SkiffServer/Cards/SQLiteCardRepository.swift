import Foundation
import GRDB

struct SQLiteCardRepository: CardRepository {
    let pool: MeteredPool

    func cards(userID: String) async throws -> [CardRecord] {
        // One statement: no transaction needed around it, and its prepared form is kept per connection.
        try await pool.unsafeRead { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM cards WHERE user_id = ? ORDER BY kind = 'issued' DESC, created_at, id"),
                arguments: [userID]
            ).compactMap(Self.card)
        }
    }

    func card(id: String, userID: String) async throws -> CardRecord? {
        try await pool.unsafeRead { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM cards WHERE id = ? AND user_id = ?"), arguments: [id, userID])
                .flatMap(Self.card)
        }
    }

    func insert(_ card: CardRecord, announcing notification: NotificationRecord?) async throws {
        do {
            try await pool.write { db in
                let work = SQLiteUnitOfWork(db: db)
                try work.insert(card)
                if let notification { try work.insert(notification) }
            }
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw RepositoryError.duplicate
        }
    }

    func owner(ofExternalCard fingerprint: String) async throws -> String? {
        try await pool.unsafeRead { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT user_id FROM cards WHERE fingerprint = ? AND kind = 'external'"),
                arguments: [fingerprint]
            )
        }
    }

    func customer(userID: String, network: String) async throws -> String? {
        try await pool.unsafeRead { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT customer_id FROM card_network_customers WHERE user_id = ? AND network = ?"),
                arguments: [userID, network]
            )
        }
    }

    func keepCustomer(_ customerID: String, userID: String, network: String) async throws -> String {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO card_network_customers (user_id, network, customer_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [userID, network, customerID]
            )
            return try String.fetchOne(
                db, sql: "SELECT customer_id FROM card_network_customers WHERE user_id = ? AND network = ?",
                arguments: [userID, network]
            ) ?? customerID
        }
    }

    func setStatus(_ status: CardStatusValue, cardID: String, userID: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE cards SET status = ? WHERE id = ? AND user_id = ?", arguments: [status.rawValue, cardID, userID]
            )
        }
    }

    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE cards SET frozen = ? WHERE id = ? AND user_id = ?", arguments: [frozen, cardID, userID])
        }
    }

    func delete(id: String, userID: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM cards WHERE id = ? AND user_id = ?", arguments: [id, userID])
        }
    }

    static func card(_ row: Row) -> CardRecord? {
        guard let kind = CardKindValue(rawValue: row["kind"]), let status = CardStatusValue(rawValue: row["status"]) else {
            return nil
        }
        return CardRecord(
            id: row["id"], userID: row["user_id"], kind: kind, brand: row["brand"], last4: row["last4"],
            expiryMonth: row["expiry_month"], expiryYear: row["expiry_year"], holderName: row["holder_name"],
            status: status, fingerprint: row["fingerprint"], createdAt: row.date("created_at"), frozen: row["frozen"],
            networkCardID: row["network_card_id"]
        )
    }
}

extension SQLiteUnitOfWork {
    func insert(_ card: CardRecord) throws {
        try db.execute(
            sql: """
                INSERT INTO cards (id, user_id, kind, brand, last4, expiry_month, expiry_year, holder_name, status,
                                   fingerprint, created_at, frozen, network_card_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                card.id, card.userID, card.kind.rawValue, card.brand, card.last4, card.expiryMonth, card.expiryYear,
                card.holderName, card.status.rawValue, card.fingerprint, card.createdAt.millisecondsSince1970,
                card.frozen, card.networkCardID,
            ]
        )
    }
}
