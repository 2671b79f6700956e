import Foundation

extension NewAccount {
    /// A new account, as registration, the seeder and the demo data all open one: the user with the opening
    /// balance, an inactive Skiff card in their name, the opening-balance transaction and the welcome notification.
    ///
    /// - Parameters:
    ///   - now: when the card is issued (its expiry counts from it).
    ///   - openedAt: when the user and the welcome date from; `now` unless the account is back-dated (demo data).
    ///   - openingBalanceAt: when the opening balance was paid in; `openedAt` unless given.
    ///   - balanceMinor: the balance the user row starts with; the opening balance unless given.
    ///   - welcomeReadAt: when the welcome was read; unread unless given.
    static func opening(
        userID: String, phone: String, countryCode: String, nationalNumber: String, fullName: String,
        passwordHash: String, limits: SkiffServerLimits, key: ServerKey, now: Date, openedAt: Date? = nil,
        openingBalanceAt: Date? = nil, balanceMinor: Int64? = nil, welcomeReadAt: Date? = nil
    ) -> NewAccount {
        let openedAt = openedAt ?? now
        return NewAccount(
            user: UserRecord(
                id: userID, phone: phone, countryCode: countryCode, nationalNumber: nationalNumber, fullName: fullName,
                passwordHash: passwordHash, balanceMinor: balanceMinor ?? limits.openingBalanceMinor,
                currency: limits.currency, createdAt: openedAt
            ),
            issuedCard: IssuedCard.make(userID: userID, holderName: fullName, key: key, now: now),
            openingTransaction: NewTransaction(
                amountMinor: limits.openingBalanceMinor, currency: limits.currency, merchant: "Skiff",
                category: "Opening balance", createdAt: openingBalanceAt ?? openedAt
            ),
            welcome: NotificationRecord(
                id: UUID().uuidString.lowercased(), userID: userID, title: "Welcome to Skiff",
                body: "Your virtual card is ready. Activate it from the Home screen.", createdAt: openedAt,
                readAt: welcomeReadAt
            )
        )
    }
}
