import Foundation
import SkiffCore

/// Home: who, how much, cards and transactions.
enum Home {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        enum Activity: Hashable, Sendable { case idle, loading, loadingMore }

        var summary: AccountSummary?
        var cards: [Card] = []
        /// The pages seen, holding rows only near the screen.
        var transactions = TransactionWindow()
        /// The cursor of the next page, nil at the end.
        var nextCursor: String? { transactions.nextCursor }
        var query: String = ""
        /// Set when the list holds one category of one month, picked in the Spending panel: `query` is its name,
        /// the server's search, and the rows it answers are kept only when in that category and month.
        var category: CategoryFilter?
        /// Set when the server searched only this many of the newest transactions (the query was too short).
        var searchLimit: Int?
        var activity: Activity = .idle
        var error: NetworkError?
        /// Set while the data shown is from the cache: when it was saved.
        var cachedAt: Date?
        /// A one-off note for the person (a card was added, …), shown until the next key or update.
        var notice: Notice?
        /// Whether the live stream has lost the server (and is trying again).
        var isOffline = false
        /// Now, as the scene's clock has it, when the state was presented: dates in another year say their year.
        var today: Date?

        /// One category of one month, as the Spending panel shows them.
        struct CategoryFilter: Hashable, Sendable {
            var name: String
            /// `2026-11`, in UTC as the server counts spending.
            var month: String
        }

        /// What happened, told once and worded by the Presenter: a card another scene added or activated, or why
        /// activation did not open.
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

        init() {}
    }

    enum Load {
        struct Request: Sendable {}
    }
    enum Refresh {
        struct Request: Sendable {}
    }
    /// The rows on screen changed: fetch again the pages near them that were let go, let go of those far away.
    enum Scroll {
        struct Request: Sendable { var visibleRows: Range<Int> }
    }
    enum LoadMore {
        struct Request: Sendable {}
    }
    enum Search {
        struct Request: Sendable {
            var query: String
            /// Typed into the search row: searched once typing pauses, not on every key.
            var isTyping: Bool
            init(query: String, isTyping: Bool = false) {
                self.query = query
                self.isTyping = isTyping
            }
        }
    }
    enum SelectTransaction {
        typealias Request = RowRequest
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
    /// Esc: stop a refresh, search or page that is still loading (Home is the root: there is nowhere to leave to).
    enum Back {
        struct Request: Sendable {}
    }

    /// A card was added in the Add card flow: show it without reloading everything.
    enum CardAdded {
        struct Request: Sendable { var card: Card }
    }

    /// A card changed elsewhere (activated).
    enum CardUpdated {
        struct Request: Sendable { var card: Card }
    }

    /// A card was removed elsewhere (on Cards).
    enum CardRemoved {
        struct Request: Sendable { var card: Card }
    }

    /// A key was pressed on Home: a notice on screen (a card added, …) has been read and goes.
    enum DismissNotice {
        struct Request: Sendable {}
    }

    /// What the live stream says (an event, or whether it reaches the server), shown as it comes.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }

    /// Notifications were read elsewhere: how many are still unread.
    enum UnreadChanged {
        struct Request: Sendable { var count: Int }
    }

    /// The Spending panel: this month's spending by category, loaded while the panel is shown.
    enum LoadSpending {
        struct Request: Sendable {}
        struct Response: Sendable {
            var spending: MonthlySpending?
            var isShown: Bool
            var isLoading: Bool
            var error: NetworkError?
        }
        struct ViewModel: Hashable, Sendable {
            struct Bar: Hashable, Sendable {
                var category: String
                /// The bar's length, against the other bars.
                var value: Double
                var amount: String
            }

            var isShown: Bool
            /// `Spending · November`.
            var title: String
            var bars: [Bar]
            /// `Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)`.
            var summary: String
            /// Shown in place of the bars when there are none.
            var emptyText: String?
        }
    }

    /// `s`: shows or hides the Spending panel, remembered between runs.
    enum ToggleSpending {
        struct Request: Sendable {}
    }

    /// Enter on a category of the Spending panel: the transactions of that category in the panel's month.
    enum SelectCategory {
        typealias Request = RowRequest
        struct Response: Sendable {
            var category: String
        }
        struct ViewModel: Hashable, Sendable {
            /// What the search row shows, so the filter can be seen and cleared with Esc.
            var searchText: String
        }
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
        struct TransactionRow: Hashable, Sendable {
            /// `22 Nov  Lyft · Transport`.
            var text: String
            var amount: String
            var isIncoming: Bool
        }
        /// One line of the transaction list: a month's heading, or a transaction's row.
        enum TransactionLine: Hashable, Sendable {
            /// `November 2026`.
            case month(String)
            /// The row of the transaction at this index; nil while its page is fetched again.
            case transaction(Int, Transaction?)
        }
        /// The transaction rows under their months' headings, each formatted when the list asks for it: an update
        /// costs the same however many transactions are loaded (issue 10).
        struct TransactionRows: Hashable, Sendable {
            let transactions: TransactionWindow
            /// Whether amounts are blurred, which changes every row's text.
            let blurred: Bool
            /// The year dates leave out (this year); nil when every date says its year.
            let currentYear: Int?
            let format: @Sendable (Transaction) -> TransactionRow
            let heading: @Sendable (TransactionMonth) -> String
            /// Stands for a row whose page is being fetched again.
            static let loading = TransactionRow(text: "Loading…", amount: "", isIncoming: false)

            init(
                transactions: TransactionWindow, blurred: Bool, currentYear: Int?,
                heading: @escaping @Sendable (TransactionMonth) -> String,
                format: @escaping @Sendable (Transaction) -> TransactionRow
            ) {
                self.transactions = transactions
                self.blurred = blurred
                self.currentYear = currentYear
                self.heading = heading
                self.format = format
            }

            /// Transactions, not lines.
            var count: Int { transactions.count }
            var isEmpty: Bool { transactions.isEmpty }
            /// The row of the transaction at `index`.
            subscript(index: Int) -> TransactionRow { transactions[index].map(format) ?? Self.loading }

            /// Lines: rows and headings.
            var lineCount: Int { transactions.lineCount }
            func line(at index: Int) -> TransactionLine? {
                switch transactions.line(at: index) {
                case .month(let month)?: .month(heading(month))
                case .transaction(let row)?: .transaction(row, transactions[row])
                case nil: nil
                }
            }

            /// Equal when made from the same transactions with the same blur and year (an array that shares its
            /// storage compares at once).
            static func == (lhs: Self, rhs: Self) -> Bool {
                lhs.blurred == rhs.blurred && lhs.currentYear == rhs.currentYear && lhs.transactions == rhs.transactions
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(blurred)
                hasher.combine(transactions.count)
            }
        }

        var name: String
        var balance: String
        var unreadBadge: String?
        var cards: [CardRow]
        /// Whether a card can be activated now: `v` shows in the status bar and the help only then.
        var canActivateCard = false
        /// Shown in place of the cards when there are none.
        var cardsEmptyText: PromptedText?
        var transactions: TransactionRows
        var transactionsTitle: String
        var emptyText: String?
        var banner: BannerMessage?
        var isBusy: Bool
        var isLoadingMore: Bool
        /// `Offline` while the live stream cannot reach the server.
        var connection: String? = nil
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
