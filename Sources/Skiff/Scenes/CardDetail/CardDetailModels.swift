import SkiffCore

/// Card detail: one card in full.
enum CardDetail {
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable { var card: Card }
        struct ViewModel: Hashable, Sendable {
            struct Row: Hashable, Sendable {
                var label: String
                var value: String
            }
            /// `Visa •••• 4242`.
            var title: String
            var rows: [Row]
            /// What the person can do about the card from Cards, or nil.
            var hint: String?
        }
    }

    /// Esc: leave.
    enum Back {
        struct Request: Sendable {}
    }
}
