/// Why a card network declined a card or a payment: stored with a declined top-up (its raw value, in the API's
/// `declineReason`), and told to the person as `message` by the server's 402 and by the wallet alike.
public enum CardDeclineReason: String, Sendable, CaseIterable {
    case generic = "card-declined"
    case insufficientFunds = "insufficient-funds"
    case expiredCard = "expired-card"
    case incorrectSecurityCode = "incorrect-cvc"
    case notConfirmed = "not-confirmed"

    /// What the person is told.
    public var message: String {
        switch self {
        case .generic: "The card's issuer declined the card. Use another card, or ask the issuer why."
        case .insufficientFunds: "The card's issuer declined the payment: the card has insufficient funds."
        case .expiredCard: "The card's issuer declined the payment: the card has expired."
        case .incorrectSecurityCode: "The card's issuer declined the card: the security code is not right."
        case .notConfirmed: "The payment was not confirmed with the card's bank, so nothing was charged."
        }
    }
}
