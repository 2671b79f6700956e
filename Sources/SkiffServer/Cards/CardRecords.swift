import Foundation
import SkiffCore

enum CardKindValue: String, Sendable { case issued, external }

enum CardStatusValue: String, Sendable { case inactive, active }

/// A card as stored: never the number, never the CVC.
struct CardRecord: Sendable, Equatable {
    var id: String
    var userID: String
    var kind: CardKindValue
    var brand: String
    var last4: String
    var expiryMonth: Int
    var expiryYear: Int
    var holderName: String
    var status: CardStatusValue
    /// HMAC-SHA256 of the number under the server key, hex.
    var fingerprint: String
    var createdAt: Date
    /// Frozen by its owner: kept apart from `status`, so unfreezing returns the card to what it was.
    var frozen = false
}
