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
    /// The same for the same number, whoever added it: the card network's fingerprint (`stripe:…`), or HMAC-SHA256
    /// of the number under the server key (the issued card, the simulated network). An external card's is on one
    /// account at most.
    var fingerprint: String
    var createdAt: Date
    /// Frozen by its owner: kept apart from `status`, so unfreezing returns the card to what it was.
    var frozen = false
    /// The card network's id of an external card (what a charge names); nil for the issued card and for cards added
    /// before the card network (`card-network`), which the simulated network still charges by their last four.
    var networkCardID: String?
}
