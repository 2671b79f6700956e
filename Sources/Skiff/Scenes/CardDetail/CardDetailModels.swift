import SkiffCore

/// Card detail: one card in full, frozen and unfrozen here, and removed if it is an added card.
enum CardDetail {
    struct State: Hashable, Sendable {
        var card: Card
        /// The freeze, unfreeze or removal on its way to the server.
        var changing: Cards.Change?
        var error: NetworkError?
        /// A change that landed, for a one-off note to the person.
        var notice: Cards.Notice?
        init(card: Card) { self.card = card }
    }

    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable {
            var card: Card
            init(card: Card) { self.card = card }
        }
        /// Titled and headed `Visa •••• 4242`; the hint says what the person can do about a frozen card.
        typealias ViewModel = DetailContent
    }

    /// `f`: freeze the card, or unfreeze it if it is frozen.
    enum Freeze {
        struct Request: Sendable {}
    }
    /// `d`: ask whether to remove the card, if it is an added card.
    enum Remove {
        struct Request: Sendable {}
        typealias Response = Cards.Remove.Response
        typealias ViewModel = Cards.Remove.ViewModel
    }
    /// The person confirmed the removal the alert named.
    typealias ConfirmRemove = Cards.ConfirmRemove

    /// Esc: leave.
    enum Back {
        struct Request: Sendable {}
    }

    /// What the screen offers and says about the card beside its content: the keys, a change on its way, a change
    /// that landed or failed.
    struct UpdateViewModel: Hashable, Sendable {
        /// What `f` does to this card: "freeze card" or "unfreeze card".
        var freezeHelp: String
        /// Whether `d` is offered: only for an added card.
        var canRemove: Bool
        var banner: BannerMessage?
        var busyText: String?
    }

    /// What every flow presents after the card loaded: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
