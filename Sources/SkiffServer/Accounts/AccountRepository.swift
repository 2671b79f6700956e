import Foundation
import SkiffCore

/// Accounts: users, their balance, and the records registration creates together.
protocol AccountRepository: Sendable {
    /// Creates the user, the issued card, the opening transaction and the welcome notification in one
    /// transaction; throws `RepositoryError.duplicate` when the phone number is taken.
    func create(_ account: NewAccount) async throws
    func user(id: String) async throws -> UserRecord?
    /// The users of `ids` that exist, by id, in one read (a transfer's payer and payee).
    func users(ids: [String]) async throws -> [String: UserRecord]
    /// The user and how many of their notifications are unread, in one read (`GET /v1/me`).
    func overview(id: String) async throws -> AccountOverview?
    func user(phone: String) async throws -> UserRecord?
    /// Replaces the password hash, revokes every session of the user and ends the replay of every code of the
    /// user's (its registration's, its resets') but `keepingReplayOf`, at once.
    func resetPassword(userID: String, passwordHash: String, at date: Date, keepingReplayOf verificationID: String?) async throws
}
