import SkiffCore

/// Card detail: one card in full.
enum CardDetail {
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var card: Card }
        /// Titled and headed `Visa •••• 4242`; the hint says what the person can do about the card from Cards.
        typealias ViewModel = DetailContent
    }

    /// Esc: leave.
    enum Back {
        struct Request: Sendable {}
    }
}
