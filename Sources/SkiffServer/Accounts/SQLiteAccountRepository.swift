import Foundation
import GRDB

struct SQLiteAccountRepository: AccountRepository {
    let pool: MeteredPool

    func create(_ account: NewAccount) async throws {
        do {
            try await pool.write { db in
                let work = SQLiteUnitOfWork(db: db)
                let user = account.user
                try db.execute(
                    sql: """
                        INSERT INTO users (id, phone, country_code, national_number, full_name, password_hash,
                                           currency, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        user.id, user.phone, user.countryCode, user.nationalNumber, user.fullName, user.passwordHash,
                        user.currency, user.createdAt.millisecondsSince1970,
                    ]
                )
                try work.make(Ledger.openWallet(
                    userID: user.id, currency: user.currency, openingMinor: user.balanceMinor, at: user.createdAt
                ))
                try work.insert(account.issuedCard)
                let opening = account.openingTransaction
                try db.execute(
                    sql: """
                        INSERT INTO transactions (user_id, amount_minor, currency, merchant, category, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        user.id, opening.amountMinor, opening.currency, opening.merchant, opening.category,
                        opening.createdAt.millisecondsSince1970,
                    ]
                )
                try work.insert(account.welcome)
            }
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw RepositoryError.duplicate
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await pool.unsafeRead { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.select + " WHERE id = ?"), arguments: [id]).map(Self.user)
        }
    }

    func users(ids: [String]) async throws -> [String: UserRecord] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try await pool.unsafeRead { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: Self.select + " WHERE id IN (\(placeholders))"), arguments: StatementArguments(ids)
            )
            return Dictionary(rows.map(Self.user).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    func overview(id: String) async throws -> AccountOverview? {
        // One statement: one reader taken instead of two.
        try await pool.unsafeRead { db in
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT users.*, (\(Self.walletBalance)) AS balance_minor,
                        \(UnreadNotifications.count(userID: "users.id")) AS unread
                    FROM users WHERE id = ?
                    """),
                arguments: [id]
            ).map { row in AccountOverview(user: Self.user(row), unreadNotifications: row["unread"]) }
        }
    }

    func user(phone: String) async throws -> UserRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: Self.select + " WHERE phone = ?", arguments: [phone]).map(Self.user)
        }
    }

    func resetPassword(userID: String, passwordHash: String, at date: Date, keepingReplayOf verificationID: String?) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [passwordHash, userID])
            try db.execute(
                sql: "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                arguments: [date.millisecondsSince1970, userID]
            )
            // A registration's verification has the account's id; a reset's names the user.
            try db.execute(
                sql: """
                    UPDATE verifications SET consumed_by = NULL
                    WHERE (user_id = ? OR id = ?) AND consumed_by IS NOT NULL AND id IS NOT ?
                    """,
                arguments: [userID, userID, verificationID]
            )
        }
    }

    /// A user with the balance of their wallet in their currency.
    private static let select = """
        SELECT users.*, (\(walletBalance)) AS balance_minor FROM users
        """
    /// The balance of a user's wallet in their currency, by the wallets' unique index.
    static let walletBalance = """
        SELECT balance_minor FROM ledger_accounts WHERE kind = 'wallet' AND user_id = users.id AND currency = users.currency
        """

    static func user(_ row: Row) -> UserRecord {
        UserRecord(
            id: row["id"], phone: row["phone"], countryCode: row["country_code"], nationalNumber: row["national_number"],
            fullName: row["full_name"], passwordHash: row["password_hash"], balanceMinor: row["balance_minor"] ?? 0,
            currency: row["currency"], createdAt: row.date("created_at")
        )
    }
}
