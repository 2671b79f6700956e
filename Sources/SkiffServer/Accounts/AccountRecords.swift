import Foundation
import SkiffCore

/// A user as stored; `passwordHash` is a bcrypt hash.
struct UserRecord: Sendable, Equatable {
    var id: String
    /// E.164, unique.
    var phone: String
    /// Without `+`.
    var countryCode: String
    var nationalNumber: String
    var fullName: String
    var passwordHash: String
    var balanceMinor: Int64
    var currency: String
    var createdAt: Date
}

/// A user with the count of their unread notifications: what Home's header shows, read in one statement.
struct AccountOverview: Sendable, Equatable {
    var user: UserRecord
    var unreadNotifications: Int
}

/// Everything registration creates, written at once.
struct NewAccount: Sendable {
    var user: UserRecord
    var issuedCard: CardRecord
    var openingTransaction: NewTransaction
    var welcome: NotificationRecord
}
