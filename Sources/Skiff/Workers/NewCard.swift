import SkiffCore

/// A card as typed, validated and ready to send once. Holds the number and security code only for that call.
struct NewCard: Sendable, Hashable, Redacted {
    var number: CardNumber
    var expiry: CardExpiry
    var securityCode: String
    var holderName: String

    init(number: CardNumber, expiry: CardExpiry, securityCode: String, holderName: String) {
        self.number = number
        self.expiry = expiry
        self.securityCode = securityCode
        self.holderName = holderName
    }

    /// `Visa •••• 4242`: the brand and last four only.
    var redactedDescription: String { number.redactedDescription }
}
