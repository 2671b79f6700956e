import Foundation
import SkiffCore

/// Home: the screen that hosts the wallet's parts (the balance header, the cards, spending, the transactions), keeps
/// what they show for the next start, and sends the person on (send, top up, cards, inbox).
enum Home {
    /// The parts Home hosts, each a scene of its own; what they fetch, Home's spinner and banner follow.
    enum Part: Hashable, Sendable, CaseIterable { case balance, cards, transactions }

    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        /// As the balance header last told it.
        var summary: AccountSummary?
        /// As the Cards panel last told them.
        var cards: [Card] = []
        /// The first page of the whole list, as the transactions last told it.
        var firstPage: Transactions.CachedPage?
        /// The parts whose load runs.
        var loading: Set<Part> = []
        /// Why a part's last load failed.
        var errors: [Part: NetworkError] = [:]
        /// Set while what the parts show is from the cache: when it was saved.
        var cachedAt: Date?
        /// A one-off note for the person (a card was added, …), shown until the next key.
        var notice: Notice?
        var isLoggingOut = false

        /// The first part's error, in the order they show.
        var error: NetworkError? { Part.allCases.lazy.compactMap { errors[$0] }.first }

        /// What happened, told once and worded by the Presenter: a card a flow added or activated, why activation
        /// did not open, money in.
        enum Notice: Hashable, Sendable {
            case cardAdded(Card)
            case cardActivated(Card)
            /// The Skiff card to activate is frozen: where to unfreeze it.
            case unfreezeCardFirst
            case cardAlreadyActive
            case noCardToActivate
            /// Money came in while Home was open: from `from` ("Alex R."), or topped up from a card.
            case moneyReceived(Money, from: String, isTopUp: Bool)
        }
    }

    /// Home's parts to load, and the parts themselves, which Home's Interactor asks to load, refresh and stop.
    @MainActor
    struct Parts {
        var balance: any BalanceBusinessLogic
        var cards: any CardsPanelBusinessLogic
        var spending: any SpendingBusinessLogic
        var transactions: any TransactionsBusinessLogic
    }

    enum Load {
        struct Request: Sendable {}
    }
    /// `r`: every part fetched again.
    enum Refresh {
        struct Request: Sendable {}
    }
    enum Navigate {
        enum Destination: Sendable { case addCard, activateCard, notifications, cards, sendMoney, topUp }
        struct Request: Sendable {
            var destination: Destination
            init(destination: Destination) { self.destination = destination }
        }
    }
    enum Logout {
        struct Request: Sendable {}
    }
    /// Esc: stop what is still loading (Home is the root: there is nowhere to leave to).
    enum Back {
        struct Request: Sendable {}
    }
    /// A key was pressed on Home: a notice on screen (a card added, …) has been read and goes.
    enum DismissNotice {
        struct Request: Sendable {}
    }
    /// A flow Home started has finished: what it did is told once. What it changed (the cards) reaches Home the one
    /// way every outside change does, by the live stream.
    enum FlowFinished {
        enum Outcome: Sendable, Equatable { case cardAdded(Card), cardActivated(Card) }
        struct Request: Sendable {
            var outcome: Outcome
            init(_ outcome: Outcome) { self.outcome = outcome }
        }
    }
    /// What the live stream says (an event, or whether it reaches the server): Home hands it to its parts.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }
    /// What one of Home's parts told it.
    enum PartTold {
        enum Report: Sendable {
            case balance(BalanceRoute)
            case cards(CardsPanelRoute)
            case spending(SpendingRoute)
            case transactions(TransactionsRoute)
        }
        struct Request: Sendable {
            var report: Report
            init(_ report: Report) { self.report = report }
        }
    }

    /// What the screen shows of Home's own state (the parts show theirs).
    struct UpdateViewModel: Hashable, Sendable {
        var banner: BannerMessage?
        var isBusy: Bool
        /// Whether a card can be activated now: `v` shows in the status bar and the help only then.
        var canActivateCard: Bool
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
