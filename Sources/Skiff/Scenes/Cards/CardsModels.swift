import SkiffCore

/// Cards: every card on the account, frozen and unfrozen, added, activated, and added cards removed.
enum Cards {
    struct State: Hashable, Sendable {
        var cards: [Card] = []
        var isLoading = false
        /// The card whose freeze, unfreeze or removal is on its way to the server.
        var changing: Change?
        var error: NetworkError?
        /// A change that landed, for a one-off note to the person.
        var notice: Notice?
        init(cards: [Card] = []) { self.cards = cards }
    }

    /// A change the server accepted: the card as it is now (frozen or not), the card removed, a card added, or
    /// the issued card activated.
    enum Notice: Hashable, Sendable {
        case changed(Card), removed(Card), added(Card), activated(Card)
    }

    /// A change on its way to the server.
    enum Change: Hashable, Sendable {
        case freeze(Card), unfreeze(Card), remove(Card)
    }

    enum Load {
        struct Request: Sendable {}
    }
    /// Enter: the selected card's detail.
    enum ShowDetail {
        typealias Request = RowRequest
    }
    /// `f`: freeze the selected card, or unfreeze it if it is frozen.
    enum Freeze {
        typealias Request = RowRequest
    }
    /// `d`: ask whether to remove the selected added card.
    enum Remove {
        typealias Request = RowRequest
        struct Response: Sendable { var card: Card }
        struct ViewModel: Hashable, Sendable {
            var title: String
            var message: String
            var confirm: String
            var cancel: String
            var cardID: String
        }
    }
    /// `a`: add a card, in the Add card flow.
    enum Add {
        struct Request: Sendable {}
    }
    /// `v`: activate the selected card, in the Activate card flow; only a card that can be activated.
    enum Activate {
        typealias Request = RowRequest
    }
    /// A change made on another screen (Add card, Activate card, Card detail), to show on the list.
    enum ChangedElsewhere {
        struct Request: Sendable {
            var change: Notice
            init(change: Notice) { self.change = change }
        }
    }
    /// The person confirmed the removal the alert named.
    enum ConfirmRemove {
        struct Request: Sendable {
            var cardID: String
            init(cardID: String) { self.cardID = cardID }
        }
    }
    /// Esc: stop a load that is still running, or leave.
    enum Back {
        struct Request: Sendable {}
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        struct Row: Hashable, Sendable {
            /// `Visa •••• 4242`.
            var title: String
            /// `Added card · expires 04/29 · Frozen`.
            var detail: String
            /// What `f` does to this card: "freeze card" or "unfreeze card".
            var freezeHelp: String
            /// Whether `d` is offered: only for added cards.
            var canRemove: Bool
            /// Whether `v` is offered: only for the issued card while it is inactive and not frozen.
            var canActivate: Bool
            var isFrozen: Bool
        }
        var rows: [Row]
        var emptyText: String?
        var banner: BannerMessage?
        var busyText: String?
    }

    /// What every other flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}

extension Card {
    /// Whether the card can be activated now: the issued card, inactive and not frozen (a frozen card cannot be
    /// activated until it is unfrozen, decision 0081).
    var canBeActivated: Bool { kind == .issued && status == .inactive && !frozen }
}
