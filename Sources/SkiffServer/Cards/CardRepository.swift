import Foundation
import SkiffCore

/// Cards, always within one user.
protocol CardRepository: Sendable {
    /// The user's cards, the issued one first, then by age.
    func cards(userID: String) async throws -> [CardRecord]
    func card(id: String, userID: String) async throws -> CardRecord?
    /// Adds `card` and, in the same transaction, `notification`; throws `RepositoryError.duplicate` (writing neither)
    /// when the user has a card with the same fingerprint, or any account has the external card.
    func insert(_ card: CardRecord, announcing notification: NotificationRecord?) async throws
    /// The user whose external card has this fingerprint, if any.
    func owner(ofExternalCard fingerprint: String) async throws -> String?
    /// The user's customer at the card network `network`, once made.
    func customer(userID: String, network: String) async throws -> String?
    /// Keeps `customerID` as the user's customer at `network` unless one is kept already; answers the one kept.
    func keepCustomer(_ customerID: String, userID: String, network: String) async throws -> String
    func setStatus(_ status: CardStatusValue, cardID: String, userID: String) async throws
    /// Freezes or unfreezes the card; setting what is already set changes nothing.
    func setFrozen(_ frozen: Bool, cardID: String, userID: String) async throws
    func delete(id: String, userID: String) async throws
}
