import Foundation

/// What a signed-in user's account shows of itself: the user, the balance and the unread count (Home's header).
struct AccountService: Sendable {
    let accounts: any AccountRepository

    /// The user `userID` with their unread count, in one read; 401 when the user is gone.
    func overview(userID: String) async throws -> AccountOverview {
        guard let overview = try await accounts.overview(id: userID) else { throw Problem.unauthorized }
        return overview
    }
}
