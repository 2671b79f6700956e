import Foundation
import SkiffCore

/// Cards, always within one user.
protocol CardRepository: Sendable {
    /// The user's cards, the issued one first, then by age.
    func cards(userID: String) async throws -> [CardRecord]
    func card(id: String, userID: String) async throws -> CardRecord?
    /// Adds `card` and, in the same transaction, `notification`; throws `RepositoryError.duplicate` (writing neither)
    /// when the user has a card with the same fingerprint.
    func insert(_ card: CardRecord, announcing notification: NotificationRecord?) async throws
    func setStatus(_ status: CardStatusValue, cardID: String, userID: String) async throws
    /// Freezes or unfreezes the card; setting what is already set changes nothing.
    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws
    func delete(id: String, userID: String) async throws
}
