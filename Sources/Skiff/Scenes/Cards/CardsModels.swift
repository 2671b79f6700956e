import SkiffCore

/// Cards: every card on the account, frozen and unfrozen, and added cards removed.
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

    /// A change the server accepted: the card as it is now (frozen or not), or the card removed.
    enum Notice: Hashable, Sendable {
        case changed(Card), removed(Card)
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
