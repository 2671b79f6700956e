import SkiffCore
import TerminalUI

/// A list's state as `TransactionPager` reads and changes it: the window its pages go into and what they are
/// searched for.
protocol PagedTransactionsState {
    /// The pages seen, holding rows only near the screen.
    var transactions: TransactionWindow { get set }
    /// The words every page is searched for; empty for the whole list.
    var query: String { get }
    /// Set when every page keeps only the rows of one category of one month.
    var category: CategoryFilter? { get }
    /// Whether the rows are a cache's: no page follows them.
    var isCached: Bool { get }
    /// Whether the next page is on its way.
    var isLoadingMore: Bool { get set }
    /// Why the last page failed; nil once one came.
    var error: NetworkError? { get set }
}

/// The scene a `TransactionPager` pages for: it keeps the state, shows it, and fetches the first page, which
/// replaces every other.
@MainActor
protocol TransactionPagerHost: AnyObject {
    associatedtype State: PagedTransactionsState
    var state: State { get set }
    /// Whether pages may be asked for: not while the first page is on its way (its answer replaces them), nor once
    /// the person has logged out.
    var mayFetchPages: Bool { get }
    /// Shows the state as it is now.
    func present()
    /// A page failed with `error`, or one came (`nil`) after a failure was told.
    func pageOutcomeChanged(error: NetworkError?)
}

/// The pages after the first: the next one when the list nears its end, and those near the rows on screen fetched
/// again, one at a time, after they were let go, so memory stays flat however far the person scrolls. Every page
/// keeps only the picked category's rows, and a page that fails is told to the host once, as is the next that comes.
@MainActor
final class TransactionPager<Host: TransactionPagerHost> {
    /// The next page.
    let nextPage: RequestInFlight
    /// A page near the screen fetched again after it was let go.
    let refill: RequestInFlight
    /// Whether the host was told that a page failed: Home's banner says so until a page comes. The host sets it
    /// when the first page's answer, which it tells itself, comes.
    var toldFailure = false
    weak var host: Host?
    private let account: any AccountWorking
    private let pageSize: Int
    /// The rows on screen, as the list last said.
    private var visibleRows: Range<Int>?

    init(account: any AccountWorking, pageSize: Int, tasks: TaskTracker) {
        self.account = account
        self.pageSize = pageSize
        nextPage = RequestInFlight(tasks: tasks)
        refill = RequestInFlight(tasks: tasks)
    }

    /// Fetches the page after the last, unless one is on its way or there is none (a cache's rows are followed by
    /// none: their cursor may be stale).
    func loadMore() {
        guard let host, !nextPage.isRunning, host.mayFetchPages, let cursor = host.state.transactions.nextCursor,
              !host.state.isCached
        else { return }
        let query = host.state.query.isEmpty ? nil : host.state.query
        host.state.isLoadingMore = true
        host.present()
        nextPage.call({ [account, pageSize] () async throws(NetworkError) in
            try await account.transactions(limit: pageSize, cursor: cursor, query: query)
        }, then: { [weak self] in self?.finishNextPage($0, cursor: cursor) })
    }

    private func finishNextPage(_ result: Result<TransactionPage, NetworkError>, cursor: String) {
        guard let host else { return }
        host.state.isLoadingMore = false
        switch result {
        case .success(let page):
            host.state.error = nil
            let (items, next) = host.state.category?.keep(page.items, next: page.nextCursor) ?? (page.items, page.nextCursor)
            host.state.transactions.append(items, fetchedWith: cursor, next: next)
        case .failure(.cancelled):
            break
        case .failure(let error):
            host.state.error = error
        }
        tellOutcome()
        host.present()
        continueCategory()
    }

    /// With a category picked, the pages after one that may still hold its month's rows are fetched at once: the
    /// title counts them all, and a page that kept no rows gives the list nothing to scroll to.
    func continueCategory() {
        guard let host, host.state.category != nil, host.state.transactions.nextCursor != nil, host.state.error == nil
        else { return }
        loadMore()
    }

    /// Lets go of the pages far from `visibleRows` and fetches again those near them that were let go.
    func scroll(to visibleRows: Range<Int>) {
        guard let host else { return }
        self.visibleRows = visibleRows
        let near = host.state.transactions.pages(near: visibleRows, pageSize: pageSize)
        if host.state.transactions.letGo(outside: near) { host.present() }
        refillNearScreen()
    }

    private func refillNearScreen() {
        guard let host, !refill.isRunning, host.mayFetchPages, let visibleRows else { return }
        let near = host.state.transactions.pages(near: visibleRows, pageSize: pageSize)
        guard let missing = host.state.transactions.missingPage(in: near) else { return }
        let query = host.state.query.isEmpty ? nil : host.state.query
        refill.call({ [account, pageSize] () async throws(NetworkError) in
            try await account.transactions(limit: pageSize, cursor: missing.cursor, query: query)
        }, then: { [weak self] result in self?.finishRefill(result, page: missing.index) })
    }

    private func finishRefill(_ result: Result<TransactionPage, NetworkError>, page: Int) {
        guard let host else { return }
        switch result {
        case .success(let answer):
            let items = host.state.category?.keep(answer.items, next: nil).items ?? answer.items
            host.state.error = nil
            host.state.transactions.refill(page: page, with: items)
            tellOutcome()
            host.present()
            refillNearScreen()
        case .failure(.cancelled):
            break
        case .failure(let error):
            host.state.error = error
            tellOutcome()
            host.present()
        }
    }

    /// A page that failed is told to the host (Home's banner offers the retry), and so is the next that came.
    private func tellOutcome() {
        guard let host else { return }
        let failed = host.state.error != nil
        guard failed != toldFailure else { return }
        toldFailure = failed
        host.pageOutcomeChanged(error: host.state.error)
    }

    /// Stops the pages in flight; their late answers are dropped, never shown.
    func abandon() {
        refill.abandon()
        nextPage.abandon()
    }
}
