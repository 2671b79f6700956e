import Foundation
import PostgresNIO

struct PostgresAccountRepository: AccountRepository {
    let database: PostgresDatabase

    func create(_ account: NewAccount) async throws {
        do {
            try await database.unitOfWork { work in
                let user = account.user
                try await work.query("""
                    INSERT INTO users (id, phone, country_code, national_number, full_name, password_hash,
                                       currency, created_at)
                    VALUES (\(user.id), \(user.phone), \(user.countryCode), \(user.nationalNumber), \(user.fullName),
                            \(user.passwordHash), \(user.currency), \(user.createdAt.millisecondsSince1970))
                    """)
                try await work.make(Ledger.openWallet(
                    userID: user.id, currency: user.currency, openingMinor: user.balanceMinor, at: user.createdAt
                ))
                try await work.insert(account.issuedCard)
                let opening = account.openingTransaction
                try await work.query("""
                    INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                    VALUES (\(user.id), \(opening.amountMinor), \(opening.currency), \(opening.merchant), \(opening.category),
                            \(opening.createdAt.millisecondsSince1970))
                    """)
                try await work.insert(account.welcome)
            }
        } catch let error where error.isPostgresUniqueViolation {
            throw RepositoryError.duplicate
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await database.rows("SELECT \(unescaped: Self.columns) FROM users WHERE id = \(id)").first.map(Self.user)
    }

    func users(ids: [String]) async throws -> [String: UserRecord] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.rows(UsersByID(ids: ids))
        return Dictionary(try rows.map(Self.user).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func overview(id: String) async throws -> AccountOverview? {
        try await database.rows("""
            SELECT \(unescaped: Self.columns),
                \(unescaped: UnreadNotifications.count(userID: "users.id")) AS unread
            FROM users WHERE id = \(id)
            """).first.map { row in
            AccountOverview(
                user: try Self.user(row), unreadNotifications: Int(try row.makeRandomAccess()["unread"].decode(Int64.self))
            )
        }
    }

    func user(phone: String) async throws -> UserRecord? {
        try await database.rows("SELECT \(unescaped: Self.columns) FROM users WHERE phone = \(phone)").first.map(Self.user)
    }

    func resetPassword(userID: String, passwordHash: String, at date: Date, keepingReplayOf verificationID: String?) async throws {
        let logger = database.logger
        try await database.transaction { connection in
            try await connection.query("UPDATE users SET password_hash = \(passwordHash) WHERE id = \(userID)", logger: logger)
            try await connection.query(
                "UPDATE sessions SET revoked_at = \(date.millisecondsSince1970) WHERE user_id = \(userID) AND revoked_at IS NULL",
                logger: logger
            )
            // A registration's verification has the account's id; a reset's names the user.
            try await connection.query("""
                UPDATE verifications SET consumed_by = NULL
                WHERE (user_id = \(userID) OR id = \(userID)) AND consumed_by IS NOT NULL
                  AND id IS DISTINCT FROM \(verificationID)
                """, logger: logger)
        }
    }

    /// The users of `ids` (`columns`): prepared, as a transfer reads its payer and payee with it.
    private struct UsersByID: PostgresStatement {
        static let sql = "SELECT \(PostgresAccountRepository.columns) FROM users WHERE id = ANY($1::TEXT[])"
        static let bindingTypes: [PostgresDataType] = [.textArray]
        var bindings = PostgresBindings()

        init(ids: [String]) {
            bindings.append(ids)
        }
    }

    /// A user with the balance of their wallet in their currency, by the wallets' unique index.
    private static let columns = """
        id, phone, country_code, national_number, full_name, password_hash,
        COALESCE((SELECT balance_minor FROM ledger_accounts
                  WHERE kind = 'wallet' AND user_id = users.id AND currency = users.currency), 0),
        currency, created_at
        """

    private static func user(_ row: PostgresRow) throws -> UserRecord {
        let (id, phone, countryCode, nationalNumber, fullName, passwordHash, balanceMinor, currency, createdAt) =
            try row.decode((String, String, String, String, String, String, Int64, String, Int64).self)
        return UserRecord(
            id: id, phone: phone, countryCode: countryCode, nationalNumber: nationalNumber, fullName: fullName,
            passwordHash: passwordHash, balanceMinor: balanceMinor, currency: currency,
            createdAt: Date(millisecondsSince1970: createdAt)
        )
    }
}
