import SkiffCore

/// Home's Cards panel: each card on a line with its status, the Skiff card's activation prompt while it waits for
/// it; the cards follow the live stream's `card-changed`.
enum CardsPanel {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        var cards: [Card] = []
        /// Whether the server's cards (or the cache's) have come: until then the panel says nothing.
        var isKnown = false
    }

    /// Home came on screen: the cards kept from last time (if any) at once, then the server's.
    enum Load {
        struct Request: Sendable {
            var cached: [Card]?
            init(cached: [Card]? = nil) { self.cached = cached }
        }
    }
    /// `r` on Home, a load that failed tried again, or the stream saying a card changed.
    enum Refresh {
        struct Request: Sendable {}
    }
    /// What the live stream says: a card added, activated, frozen or removed, anywhere.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }
    /// Esc on Home, or the person logging out: the load in flight is dropped.
    enum Stop {
        struct Request: Sendable {}
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        struct CardRow: Hashable, Sendable {
            var title: String
            /// `Skiff card · expires 11/30`: cut first when the line is narrow.
            var summary: String
            /// `Inactive.` with the prompt to activate, `Active`, `Frozen`: kept when the line is narrow.
            var status: PromptedText
            var needsActivation: Bool
        }

        var cards: [CardRow]
        /// Shown in place of the cards when there are none.
        var emptyText: PromptedText?
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
