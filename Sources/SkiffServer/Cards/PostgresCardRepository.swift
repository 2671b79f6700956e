import Foundation
import PostgresNIO

struct PostgresCardRepository: CardRepository {
    let database: PostgresDatabase

    func cards(userID: String) async throws -> [CardRecord] {
        try await database.rows("""
            SELECT \(unescaped: Self.columns) FROM cards WHERE user_id = \(userID)
            ORDER BY kind = 'issued' DESC, created_at, id
            """).compactMap(Self.card)
    }

    func card(id: String, userID: String) async throws -> CardRecord? {
        try await database.rows("SELECT \(unescaped: Self.columns) FROM cards WHERE id = \(id) AND user_id = \(userID)")
            .first.flatMap(Self.card)
    }

    /// The unique (user_id, fingerprint) constraint refuses a duplicate in the insert itself.
    func insert(_ card: CardRecord, announcing notification: NotificationRecord?) async throws {
        do {
            try await database.unitOfWork { work in
                try await work.insert(card)
                if let notification { try await work.insert(notification) }
            }
        } catch let error where error.isPostgresUniqueViolation {
            throw RepositoryError.duplicate
        }
    }

    func owner(ofExternalCard fingerprint: String) async throws -> String? {
        try await database.rows(
            "SELECT user_id FROM cards WHERE fingerprint = \(fingerprint) AND kind = 'external'"
        ).first.map { try $0.decode(String.self) }
    }

    func customer(userID: String, network: String) async throws -> String? {
        try await database.rows(
            "SELECT customer_id FROM card_network_customers WHERE user_id = \(userID) AND network = \(network)"
        ).first.map { try $0.decode(String.self) }
    }

    func keepCustomer(_ customerID: String, userID: String, network: String) async throws -> String {
        _ = try await database.write("""
            INSERT INTO card_network_customers (user_id, network, customer_id) VALUES (\(userID), \(network), \(customerID))
            ON CONFLICT DO NOTHING
            """)
        return try await customer(userID: userID, network: network) ?? customerID
    }

    func setStatus(_ status: CardStatusValue, cardID: String, userID: String) async throws {
        _ = try await database.write("UPDATE cards SET status = \(status.rawValue) WHERE id = \(cardID) AND user_id = \(userID)")
    }

    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws {
        _ = try await database.write("UPDATE cards SET frozen = \(frozen) WHERE id = \(cardID) AND user_id = \(userID)")
    }

    func delete(id: String, userID: String) async throws {
        _ = try await database.write("DELETE FROM cards WHERE id = \(id) AND user_id = \(userID)")
    }

    private static let columns =
        "id, user_id, kind, brand, last4, expiry_month, expiry_year, holder_name, status, fingerprint, created_at, frozen, "
            + "network_card_id"

    private static func card(_ row: PostgresRow) throws -> CardRecord? {
        let (id, userID, kind, brand, last4, expiryMonth, expiryYear, holderName, status, fingerprint, createdAt, frozen,
             networkCardID) =
            try row.decode((String, String, String, String, String, Int, Int, String, String, String, Int64, Bool, String?).self)
        guard let kind = CardKindValue(rawValue: kind), let status = CardStatusValue(rawValue: status) else { return nil }
        return CardRecord(
            id: id, userID: userID, kind: kind, brand: brand, last4: last4, expiryMonth: expiryMonth,
            expiryYear: expiryYear, holderName: holderName, status: status, fingerprint: fingerprint,
            createdAt: Date(millisecondsSince1970: createdAt), frozen: frozen, networkCardID: networkCardID
        )
    }
}

extension PostgresUnitOfWork {
    func insert(_ card: CardRecord) async throws {
        try await query(insertQuery(card))
    }
}

private func insertQuery(_ card: CardRecord) -> PostgresQuery {
    """
    INSERT INTO cards (id, user_id, kind, brand, last4, expiry_month, expiry_year, holder_name, status,
                       fingerprint, created_at, frozen, network_card_id)
    VALUES (\(card.id), \(card.userID), \(card.kind.rawValue), \(card.brand), \(card.last4), \(card.expiryMonth),
            \(card.expiryYear), \(card.holderName), \(card.status.rawValue), \(card.fingerprint),
            \(card.createdAt.millisecondsSince1970), \(card.frozen), \(card.networkCardID))
    """
}
