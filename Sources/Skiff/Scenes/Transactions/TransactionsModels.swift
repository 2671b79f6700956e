import Foundation
import SkiffCore

/// Home's transaction list: paged under month headings, searched as the person types, filtered to one category of
/// one month from the Spending panel, with money arriving on top as the live stream tells it.
enum Transactions {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        enum Activity: Hashable, Sendable { case idle, loading, loadingMore }

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
        /// Whether the rows are the cache's, until the server's answer replaces them: no page follows them.
        var isCached = false
        /// Now, as the scene's clock has it, when the state was presented: dates in another year say their year.
        var today: Date?
        /// Set only while the state that put live money on top of the list is presented.
        var moneyArrivedOnTop = false

        typealias CategoryFilter = Skiff.CategoryFilter
    }

    /// Home came on screen: the rows it kept from last time (if any) at once, then the first page.
    enum Load {
        struct Request: Sendable {
            var cached: CachedPage?
            init(cached: CachedPage? = nil) { self.cached = cached }
        }
    }
    /// `r` on Home: the list as it is searched now, fetched again.
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
    /// A category of a month, picked in the Spending panel: its name goes in the search row.
    enum ShowCategory {
        struct Request: Sendable {
            var category: State.CategoryFilter
        }
        struct Response: Sendable {
            var category: String
        }
        struct ViewModel: Hashable, Sendable {
            /// What the search row shows, so the filter can be seen and cleared with Esc.
            var searchText: String
        }
    }
    enum SelectTransaction {
        typealias Request = RowRequest
    }
    /// Esc: stop a search or page that is still loading.
    enum Back {
        struct Request: Sendable {}
    }
    /// What the live stream says: money in or out goes on top of the list.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }
    /// The person is logging out: nothing more is asked for.
    enum Stop {
        struct Request: Sendable {}
    }

    /// The first page of the whole list (no search), as Home keeps it for the next start.
    struct CachedPage: Hashable, Sendable {
        var items: [Transaction]
        var nextCursor: String?
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        struct Row: Hashable, Sendable {
            /// `22 Nov  Lyft · Transport`.
            var text: String
            var amount: String
            var isIncoming: Bool
        }
        /// One line of the list: a month's heading, or a transaction's row.
        enum Line: Hashable, Sendable {
            /// `November 2026`.
            case month(String)
            /// The row of the transaction at this index; nil while its page is fetched again.
            case transaction(Int, Transaction?)
        }
        /// The transaction rows under their months' headings, each formatted when the list asks for it: an update
        /// costs the same however many transactions are loaded (issue 10).
        struct Rows: Hashable, Sendable {
            let transactions: TransactionWindow
            /// Whether amounts are blurred, which changes every row's text.
            let blurred: Bool
            /// The year dates leave out (this year); nil when every date says its year.
            let currentYear: Int?
            let format: @Sendable (Transaction) -> Row
            let heading: @Sendable (TransactionMonth) -> String
            /// Stands for a row whose page is being fetched again.
            static let loading = Row(text: "Loading…", amount: "", isIncoming: false)

            init(
                transactions: TransactionWindow, blurred: Bool, currentYear: Int?,
                heading: @escaping @Sendable (TransactionMonth) -> String,
                format: @escaping @Sendable (Transaction) -> Row
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
            subscript(index: Int) -> Row { transactions[index].map(format) ?? Self.loading }

            /// Lines: rows and headings.
            var lineCount: Int { transactions.lineCount }
            func line(at index: Int) -> Line? {
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

        var rows: Rows
        var title: String
        var emptyText: String?
        var isLoadingMore: Bool
        /// Live money went on top of the list: a selection on the newest row moves to the new newest (0206).
        var moneyArrivedOnTop = false
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}

extension Transactions.State: PagedTransactionsState {
    var isLoadingMore: Bool {
        get { activity == .loadingMore }
        set { activity = newValue ? .loadingMore : .idle }
    }
}
