import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol TransactionsBusinessLogic: AnyObject {
    func load(request: Transactions.Load.Request)
    func refresh(request: Transactions.Refresh.Request)
    func loadMore(request: Transactions.LoadMore.Request)
    func scroll(request: Transactions.Scroll.Request)
    func search(request: Transactions.Search.Request)
    func showCategory(request: Transactions.ShowCategory.Request)
    func selectTransaction(request: Transactions.SelectTransaction.Request)
    func back(request: Transactions.Back.Request)
    func live(request: Transactions.Live.Request)
    func stop(request: Transactions.Stop.Request)
}

/// Where the list sends the person, and what it tells Home, which hosts it.
enum TransactionsRoute: Sendable {
    case transaction(Transaction)
    /// The first page of the whole list changed (fetched, or money on top): Home keeps it for the next start.
    case firstPage(Transactions.CachedPage)
    /// A search or refresh started, or ended (with its error, if it failed): Home's spinner and banner follow it.
    case loading(isRunning: Bool, error: NetworkError?)
}

/// Searches the transactions and fetches their first page, leaves the pages after it to `pager`, and puts money the
/// live stream tells of on top.
@MainActor
final class TransactionsInteractor: TransactionsBusinessLogic {
    static let pageSize = 50
    /// How long typing in the search row pauses before the search goes to the server.
    static let typingPause: Duration = .milliseconds(300)

    /// What the list is searched for: words, or one category of one month.
    private struct Search: Equatable {
        var query: String
        var category: Transactions.State.CategoryFilter?
    }

    private let presenter: any TransactionsPresentationLogic
    private let account: any AccountWorking
    private let clock: SceneClock
    var route: (TransactionsRoute) -> Void = { _ in }

    /// Changed by the Interactor and, as pages come, by `pager`.
    var state: Transactions.State
    /// A search whose answer never came (the server failed or was unreachable): refreshing tries it again.
    private var failedSearch: Search?
    /// What the search row asked for last: waiting for typing to pause, on its way, or shown.
    private var searchedFor = ""
    /// The pause after a key typed into the search row, before its words are searched.
    let searchPause: RequestInFlight
    /// The first page, for a load, refresh or search.
    let fetch: RequestInFlight
    /// Lines the live stream brought while `fetch` ran, put on top of its answer.
    private var arrivedDuringFetch: [Transaction] = []
    /// The pages after the first: the next one, and those near the screen fetched again after they were let go.
    let pager: TransactionPager<TransactionsInteractor>
    /// Set once the person logs out.
    private var stopped = false

    /// `timeZone`: the person's, in which the list's months are counted.
    init(presenter: any TransactionsPresentationLogic, account: any AccountWorking, clock: SceneClock = .live, timeZone: TimeZone = .current, tasks: TaskTracker) {
        self.presenter = presenter
        self.account = account
        self.clock = clock
        state = Transactions.State(transactions: TransactionWindow(timeZone: timeZone))
        searchPause = RequestInFlight(tasks: tasks)
        fetch = RequestInFlight(tasks: tasks)
        pager = TransactionPager(account: account, pageSize: Self.pageSize, tasks: tasks)
        pager.host = self
    }

    func present() {
        state.today = clock.now()
        presenter.presentUpdate(response: .init(state: state))
    }

    func load(request: Transactions.Load.Request) {
        if let cached = request.cached {
            state.transactions = TransactionWindow(firstPage: cached.items, nextCursor: cached.nextCursor, timeZone: state.transactions.timeZone)
            state.isCached = true
        }
        fetchFirstPage(currentSearch)
    }

    /// What the list shows now.
    private var currentSearch: Search { Search(query: state.query, category: state.category) }

    func refresh(request: Transactions.Refresh.Request) {
        // Words still waiting for typing to pause are what the person wants to see.
        let typed = searchPause.isRunning ? Search(query: searchedFor, category: nil) : nil
        fetchFirstPage(failedSearch ?? typed ?? currentSearch)
    }

    /// Fetches the first page for `search`; what is on screen stays until the answer replaces it.
    private func fetchFirstPage(_ search: Search) {
        guard !stopped else { return }
        abandonLoads()
        searchedFor = search.query
        let query = search.query.isEmpty ? nil : search.query
        state.activity = .loading
        state.error = nil
        present()
        route(.loading(isRunning: true, error: nil))
        fetch.call({ [account] () async throws(NetworkError) in
            try await account.transactions(limit: TransactionsInteractor.pageSize, cursor: nil, query: query)
        }, then: { [weak self] in self?.finishFetch($0, search: search) })
    }

    private func finishFetch(_ result: Result<TransactionPage, NetworkError>, search: Search) {
        state.activity = .idle
        defer { arrivedDuringFetch = [] }
        switch result {
        case .success(let answer):
            var (items, next) = (answer.items, answer.nextCursor)
            if let category = search.category { (items, next) = category.keep(items, next: next) }
            state.transactions = TransactionWindow(firstPage: items, nextCursor: next, timeZone: state.transactions.timeZone)
            state.searchLimit = answer.searchLimit
            state.query = search.query
            state.category = search.category
            state.isCached = false
            failedSearch = nil
            if search.query.isEmpty {
                for transaction in arrivedDuringFetch { _ = state.transactions.prepend(transaction) }
                reportFirstPage()
            }
            route(.loading(isRunning: false, error: nil))
        case .failure(.cancelled):
            route(.loading(isRunning: false, error: nil))
        case .failure(let error):
            state.error = error
            failedSearch = search == currentSearch ? nil : search
            route(.loading(isRunning: false, error: error))
        }
        pager.toldFailure = state.error != nil
        present()
        pager.continueCategory()
    }

    private func reportFirstPage() {
        guard state.query.isEmpty, !state.isCached else { return }
        let cursor = state.transactions.pages.count <= 1 ? state.nextCursor : nil
        route(.firstPage(.init(items: state.transactions.firstPage, nextCursor: cursor)))
    }

    func loadMore(request: Transactions.LoadMore.Request) { pager.loadMore() }

    func scroll(request: Transactions.Scroll.Request) { pager.scroll(to: request.visibleRows) }

    /// Stops the loads in flight; their late answers are dropped, never shown.
    private func abandonLoads() {
        searchPause.abandon()
        pager.abandon()
        fetch.abandon()
    }

    /// Typed words are searched once typing pauses (`typingPause`, on the scene's clock); Enter searches at once,
    /// the same words again too (a search that failed, or to see what is new). Enter on a category's name, as
    /// picking it in the Spending panel put it there, keeps that category and month.
    func search(request: Transactions.Search.Request) {
        let query = request.query.trimmingCharacters(in: .whitespaces)
        searchPause.abandon()
        guard request.isTyping else {
            let search = Search(query: query, category: state.category?.name == query ? state.category : nil)
            // Nothing searched and nothing asked: the whole list is what shows.
            guard !(query.isEmpty && search == currentSearch && !fetch.isRunning) else {
                searchedFor = ""
                return
            }
            fetchFirstPage(search)
            return
        }
        guard query != searchedFor else { return }
        searchedFor = query
        searchPause.start({ [clock] in
            (try? await clock.sleep(TransactionsInteractor.typingPause)) != nil
        }, then: { [weak self] paused in
            if paused { self?.fetchFirstPage(Search(query: query, category: nil)) }
        })
    }

    /// Lists the category's transactions in its month: the server is searched for its name, and the rows it
    /// answers are kept only when in that category and month.
    func showCategory(request: Transactions.ShowCategory.Request) {
        presenter.presentShowCategory(response: .init(category: request.category.name))
        fetchFirstPage(Search(query: request.category.name, category: request.category))
    }

    func back(request: Transactions.Back.Request) {
        guard fetch.isRunning || pager.nextPage.isRunning else { return }
        let searching = fetch.isRunning
        abandonLoads()
        state.activity = .idle
        present()
        if searching { route(.loading(isRunning: false, error: nil)) }
    }

    func selectTransaction(request: Transactions.SelectTransaction.Request) {
        guard let transaction = state.transactions[request.index] else { return }
        route(.transaction(transaction))
    }

    /// Money in or out goes on top, unless a search filters it or the list has it already; back online, a load
    /// that failed meanwhile is tried again.
    func live(request: Transactions.Live.Request) {
        switch request.update {
        case .event(.moneyReceived(let transaction, _, _)), .event(.moneySent(let transaction)):
            guard addAtTop(transaction) else { return }
            reportFirstPage()
            state.moneyArrivedOnTop = true
            present()
            state.moneyArrivedOnTop = false
        case .online:
            guard state.error != nil || state.isCached || failedSearch != nil, !fetch.isRunning else { return }
            refresh(request: .init())
        default:
            return
        }
    }

    private func addAtTop(_ transaction: Transaction) -> Bool {
        guard state.query.isEmpty else { return false }
        if fetch.isRunning {
            // The fetch in flight may have read the list before this line was written: it goes on top of its answer.
            arrivedDuringFetch.append(transaction)
            return false
        }
        return state.transactions.prepend(transaction)
    }

    func stop(request: Transactions.Stop.Request) {
        stopped = true
        abandonLoads()
    }
}

extension TransactionsInteractor: TransactionPagerHost {
    var mayFetchPages: Bool { !fetch.isRunning && !stopped }

    func pageOutcomeChanged(error: NetworkError?) { route(.loading(isRunning: false, error: error)) }
}
