import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("TransactionsInteractor", .timeLimit(.minutes(3)))
struct TransactionsInteractorTests {
    let presenter = TransactionsPresentationLogicSpy()
    let account = AccountWorkerDouble.succeeding
    let tasks = TaskTracker()
    /// Every route the list took, oldest first.
    let routes = Recorder<TransactionsRoute>()

    func makeSUT(clock: SceneClock = .immediate()) -> TransactionsInteractor {
        let sut = TransactionsInteractor(presenter: presenter, account: account, clock: clock, timeZone: .gmt, tasks: tasks)
        sut.route = { [routes] in routes.record($0) }
        return sut
    }

    func firstPage() -> TransactionPage {
        TransactionPage(items: (1...50).map { Seeds.transaction($0) }, nextCursor: "c50")
    }

    /// The routes taken, in words short enough to compare: `loading`, `loaded`, `failed(unreachable)`,
    /// `firstPage(t_1 of 50, c50)`, `transaction(t_3)`.
    var told: [String] {
        routes.all.map { route in
            switch route {
            case .transaction(let transaction): "transaction(\(transaction.id))"
            case .firstPage(let page):
                "firstPage(\(page.items.first?.id ?? "nothing") of \(page.items.count), \(page.nextCursor ?? "end"))"
            case .loading(true, _): "loading"
            case .loading(false, nil): "loaded"
            case .loading(false, let error?): "failed(\(error))"
            }
        }
    }

    var state: Transactions.State? { presenter.presentUpdateCalls.last?.state }

    func incoming(_ n: Int) -> Transaction {
        Transaction(
            id: "t_live_\(n)", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.",
            category: "Transfers", createdAt: Seeds.now
        )
    }

    // MARK: Load

    @Test("load fetches the first page of 50 and tells Home around it: loading, the page for its cache, loaded")
    func load() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.activity == .loading)
        #expect(told == ["loading"])
        await tasks.settle()
        #expect(state?.transactions.count == 50)
        #expect(state?.nextCursor == "c50")
        #expect(state?.activity == .idle)
        #expect(state?.isCached == false)
        #expect(account.calls.all.map(\.limit) == [50])
        #expect(account.calls.all.map(\.query) == [nil])
        #expect(told == ["loading", "firstPage(t_1 of 50, c50)", "loaded"])
    }

    @Test("the cached page shows at once, marked cached, and is not told back to Home; the server's answer replaces it")
    func cachedFirst() async {
        account.pages.set(.success(["": firstPage()]))
        let gate = Gate()
        account.gate = gate
        let sut = makeSUT()
        sut.load(request: .init(cached: .init(items: [Seeds.transaction(1)], nextCursor: "c1")))
        let first = presenter.presentUpdateCalls.first?.state
        #expect(first?.transactions.count == 1)
        #expect(first?.isCached == true)
        #expect(first?.activity == .loading)
        await tasks.settle(leaving: { gate.held })
        sut.live(request: .init(update: .online))
        await tasks.settle(leaving: { gate.held })
        #expect(account.calls.count == 1, "back online while the first page is on its way asks nothing more")
        #expect(told == ["loading"])
        gate.open()
        await tasks.settle()
        #expect(state?.transactions.count == 50)
        #expect(state?.isCached == false)
        #expect(told == ["loading", "firstPage(t_1 of 50, c50)", "loaded"])
    }

    @Test("offline with the cache shown: the error goes to Home, the cached rows stay, no page follows them, money on top is not told as the first page; online fetches once")
    func cachedOffline() async {
        account.pages.set(.success(["": firstPage(), "c2": firstPage()]))
        account.pageFailure.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init(cached: .init(items: [Seeds.transaction(1), Seeds.transaction(2)], nextCursor: "c2")))
        await tasks.settle()
        #expect(state?.error == .unreachable)
        #expect(state?.isCached == true)
        #expect(state?.transactions.count == 2)
        #expect(told == ["loading", "failed(unreachable)"])
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(account.calls.count == 1, "the cache's cursor is not followed")
        sut.live(request: .init(update: .event(.moneyReceived(incoming(1), from: "Jordan R.", isTopUp: false))))
        #expect(state?.transactions[0] == incoming(1))
        #expect(told == ["loading", "failed(unreachable)"], "Home keeps its own cache, not this one")

        account.pageFailure.set(.success(()))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.calls.all.map(\.cursor) == [nil, nil])
        #expect(state?.isCached == false)
        #expect(state?.error == nil)
        #expect(told.suffix(3) == ["loading", "firstPage(t_1 of 50, c50)", "loaded"])
    }

    @Test("every state presented carries now, from the scene's clock, so dates can leave out this year")
    func today() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(!presenter.presentUpdateCalls.isEmpty)
        #expect(presenter.presentUpdateCalls.allSatisfy { $0.state.today == Seeds.now })
    }

    // MARK: Pages

    @Test("scrolling near the end loads the next page of 50 once; Home hears nothing of a page")
    func loadMore() async {
        account.pages.set(.success(["": firstPage(), "c50": TransactionPage(items: (51...60).map { Seeds.transaction($0) }, nextCursor: nil)]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let toldBefore = told
        sut.loadMore(request: .init())
        #expect(state?.activity == .loadingMore)
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(account.calls.all.map(\.cursor) == [nil, "c50"])
        #expect(state?.transactions.count == 60)
        #expect(state?.nextCursor == nil)
        #expect(state?.activity == .idle)
        sut.loadMore(request: .init())
        #expect(account.calls.count == 2)
        #expect(told == toldBefore)
    }

    @Test("a page that fails is told to Home once, with its error (its banner offers the retry); the next page that comes says it is over")
    func pageFails() async {
        account.pages.set(.success(["": firstPage(), "c50": TransactionPage(items: (51...60).map { Seeds.transaction($0) }, nextCursor: nil)]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let toldBefore = told
        account.pageFailure.set(.failure(.unreachable))
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(state?.error == .unreachable)
        #expect(state?.transactions.count == 50)
        #expect(told == toldBefore + ["failed(unreachable)"])
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(told == toldBefore + ["failed(unreachable)"], "told once")
        account.pageFailure.set(.success(()))
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(state?.error == nil)
        #expect(state?.transactions.count == 60)
        #expect(told == toldBefore + ["failed(unreachable)", "loaded"])
        #expect(account.calls.all.map(\.cursor) == [nil, "c50", "c50", "c50"])
    }

    @Test("pages far from the rows on screen are let go, and fetched again with their cursor when scrolled back to")
    func window() async {
        var pages = ["": firstPage()]
        for start in stride(from: 50, to: 300, by: 50) {
            pages["c\(start)"] = TransactionPage(
                items: (start + 1...start + 50).map { Seeds.transaction($0) }, nextCursor: start + 50 < 300 ? "c\(start + 50)" : nil
            )
        }
        account.pages.set(.success(pages))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        for _ in 0..<5 {
            sut.loadMore(request: .init())
            await tasks.settle()
        }
        #expect(sut.state.transactions.count == 300)
        sut.scroll(request: .init(visibleRows: 270..<290))
        #expect(sut.state.transactions[20] != nil, "the first page is kept")
        #expect(sut.state.transactions[100] == nil)
        #expect(sut.state.transactions[280] != nil)
        #expect(state?.transactions[100] == nil)
        let calls = account.calls.count
        sut.scroll(request: .init(visibleRows: 100..<120))
        await tasks.settle()
        #expect(account.calls.all.dropFirst(calls).map(\.cursor) == ["c50", "c100", "c150"])
        #expect(sut.state.transactions[100]?.id == "t_101")
        #expect(sut.state.transactions[280] == nil)
        sut.selectTransaction(request: .init(index: 280))
        #expect(!told.contains { $0.hasPrefix("transaction") }, "a row let go opens nothing")
    }

    // MARK: Search

    @Test("search asks the server with the query and replaces the list; only the whole list is told to Home as its first page")
    func search() async {
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        let sut = makeSUT()
        sut.search(request: .init(query: " coffee "))
        #expect(told == ["loading"])
        await tasks.settle()
        #expect(account.calls.last?.query == "coffee")
        #expect(state?.query == "coffee")
        #expect(state?.transactions == [Seeds.transaction(7)])
        #expect(told == ["loading", "loaded"], "a search's rows are not Home's to keep")
        sut.search(request: .init(query: ""))
        await tasks.settle()
        #expect(account.calls.last?.query == nil)
        #expect(told.suffix(3) == ["loading", "firstPage(t_7 of 1, end)", "loaded"])
    }

    @Test("a search the server answered from its newest transactions only says so, until the next search")
    func shortSearchLimit() async {
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil, searchLimit: 10_000)]))
        let sut = makeSUT()
        sut.search(request: .init(query: "bp"))
        await tasks.settle()
        #expect(state?.searchLimit == 10_000)
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        sut.search(request: .init(query: "bpx"))
        await tasks.settle()
        #expect(state?.searchLimit == nil)
    }

    @Test("a search that fails keeps the list and the query it belongs to, tells Home the error, and is what a refresh tries again")
    func searchFails() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        account.pageFailure.set(.failure(.unreachable))
        sut.search(request: .init(query: "coffee"))
        await tasks.settle()
        #expect(state?.transactions.count == 50)
        #expect(state?.query == "")
        #expect(state?.error == .unreachable)
        #expect(told.suffix(2) == ["loading", "failed(unreachable)"])

        account.pageFailure.set(.success(()))
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == [nil, "coffee", "coffee"])
        #expect(state?.query == "coffee")
        #expect(state?.error == nil)
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(account.calls.last?.query == "coffee", "once answered, a refresh fetches what is shown")
    }

    @Test("typing searches once typing pauses, on the scene's clock, for the last words typed; Enter searches at once")
    func searchAsYouType() async {
        let sleeps = HeldSleeps()
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        let sut = makeSUT(clock: SceneClock(now: { Seeds.now }, sleep: { try await sleeps.sleep(for: $0) }))
        for typed in ["c", "co", "cof"] { sut.search(request: .init(query: typed, isTyping: true)) }
        await tasks.settle(leaving: { sleeps.held })
        #expect(account.calls.count == 0, "nothing is searched while the person types")
        #expect(sleeps.durations == Array(repeating: TransactionsInteractor.typingPause, count: 3))
        #expect(sleeps.held == 1, "each key starts the pause again")
        sleeps.endAll()
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == ["cof"])
        #expect(state?.query == "cof")
        sut.search(request: .init(query: "cof ", isTyping: true))
        #expect(sleeps.durations.count == 3, "the words shown, typed again, wait for nothing")
        sut.search(request: .init(query: "cof"))
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == ["cof", "cof"], "Enter searches at once, the same words too")
        #expect(sleeps.durations.count == 3)
        sut.search(request: .init(query: "tea", isTyping: true))
        sut.search(request: .init(query: ""))
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == ["cof", "cof", nil], "Esc's empty search drops the pause")
    }

    @Test("Enter on an empty search row with nothing searched fetches nothing; a refresh while typing pauses searches the words typed")
    func searchEdges() async {
        let sleeps = HeldSleeps()
        let sut = makeSUT(clock: SceneClock(now: { Seeds.now }, sleep: { try await sleeps.sleep(for: $0) }))
        sut.load(request: .init())
        await tasks.settle()
        sut.search(request: .init(query: " "))
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == [nil])
        sut.search(request: .init(query: "tea", isTyping: true))
        sut.refresh(request: .init())
        await tasks.settle(leaving: { sleeps.held })
        #expect(sleeps.held == 0)
        #expect(account.calls.all.map(\.query) == [nil, "tea"])
        #expect(sut.state.query == "tea")
    }

    // MARK: Category

    @Test("a category picked in the chart lists only that category in the chart's month, fetching pages until the month is past")
    func categoryOfMonth() async {
        func row(_ id: String, daysAgo: Double, merchant: String = "Shop", category: String = "Groceries", amountMinor: Int64 = -1_000) -> Transaction {
            Transaction(
                id: id, amount: Money(amountMinor: amountMinor, currency: "USD"), merchant: merchant, category: category,
                createdAt: Seeds.now.addingTimeInterval(-daysAgo * 86_400)
            )
        }
        // What the server matches for "Groceries": its name anywhere (a merchant too), in any month.
        account.pages.set(.success([
            "": TransactionPage(items: [
                row("nov20", daysAgo: 2), row("direct", daysAgo: 4, merchant: "Groceries Direct", category: "Shopping"),
                row("refund", daysAgo: 12, amountMinor: 300),
            ], nextCursor: "c3"),
            "c3": TransactionPage(items: [row("nov2", daysAgo: 20), row("oct30", daysAgo: 23)], nextCursor: "c5"),
            "c5": TransactionPage(items: [row("oct1", daysAgo: 52)], nextCursor: nil),
        ]))
        let sut = makeSUT()
        sut.showCategory(request: .init(category: .init(name: "Groceries", month: "2026-11")))
        #expect(presenter.presentShowCategoryCalls.map(\.category) == ["Groceries"])
        await tasks.settle()
        let state = sut.state
        #expect((0..<state.transactions.count).map { state.transactions[$0]?.id } == ["nov20", "refund", "nov2"])
        #expect(state.category == Transactions.State.CategoryFilter(name: "Groceries", month: "2026-11"))
        #expect(state.query == "Groceries")
        #expect(state.nextCursor == nil, "October's rows end it: nothing after them is November's")
        #expect(account.calls.all.map(\.cursor) == [nil, "c3"])
        #expect(account.calls.all.allSatisfy { $0.query == "Groceries" })
        #expect(told == ["loading", "loaded"], "a category's rows are not Home's first page")

        sut.search(request: .init(query: "Groceries"))
        await tasks.settle()
        #expect(sut.state.category != nil, "Enter on the category's name keeps the category and month")
        sut.search(request: .init(query: "Groceries D", isTyping: true))
        await tasks.settle()
        #expect(sut.state.category == nil, "other words are searched as words")
        #expect(sut.state.query == "Groceries D")
    }

    // MARK: Esc and stop

    @Test("Esc stops a first-page fetch still loading: Home hears it ended with no error, and its late answer is dropped")
    func backStopsFetch() async {
        account.pages.set(.success(["": firstPage()]))
        let gate = Gate()
        account.gate = gate
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle(leaving: { gate.held })
        sut.back(request: .init())
        #expect(state?.activity == .idle)
        #expect(!sut.fetch.isRunning)
        #expect(told == ["loading", "loaded"])
        gate.open()
        await tasks.settle()
        #expect(state?.transactions.isEmpty == true)
        #expect(told == ["loading", "loaded"])
    }

    @Test("Esc stops a page still loading, which Home never heard of; with nothing loading it does nothing")
    func backStopsPage() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let toldBefore = told
        presenter.reset()
        sut.back(request: .init())
        #expect(presenter.calls.isEmpty)
        let gate = Gate()
        account.gate = gate
        sut.loadMore(request: .init())
        await tasks.settle(leaving: { gate.held })
        sut.back(request: .init())
        #expect(!sut.pager.nextPage.isRunning)
        #expect(state?.activity == .idle)
        #expect(told == toldBefore)
    }

    @Test("after stop (logging out) nothing more is asked for: loads in flight are dropped, and no key or live update starts one")
    func stop() async {
        var pages = ["": firstPage()]
        for start in stride(from: 50, to: 200, by: 50) {
            pages["c\(start)"] = TransactionPage(
                items: (start + 1...start + 50).map { Seeds.transaction($0) }, nextCursor: start + 50 < 200 ? "c\(start + 50)" : nil
            )
        }
        account.pages.set(.success(pages))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        for _ in 0..<3 {
            sut.loadMore(request: .init())
            await tasks.settle()
        }
        sut.scroll(request: .init(visibleRows: 180..<200))
        #expect(sut.state.transactions[60] == nil)
        let gate = Gate()
        account.gate = gate
        sut.refresh(request: .init())
        await tasks.settle(leaving: { gate.held })
        let calls = account.calls.count

        sut.stop(request: .init())
        #expect(!sut.fetch.isRunning)
        account.gate = nil
        gate.open()
        sut.load(request: .init())
        sut.refresh(request: .init())
        sut.search(request: .init(query: "coffee"))
        sut.showCategory(request: .init(category: .init(name: "Groceries", month: "2026-11")))
        sut.loadMore(request: .init())
        sut.scroll(request: .init(visibleRows: 40..<60))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.calls.count == calls, "\(account.calls.all.dropFirst(calls).map(\.cursor))")
        #expect(told.filter { $0 == "loading" }.count == 2, "no fetch started after the refresh that was running")
    }

    // MARK: Select

    @Test("Enter on a transaction routes to its detail; on no row, nowhere")
    func select() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let toldBefore = told
        sut.selectTransaction(request: .init(index: 2))
        sut.selectTransaction(request: .init(index: 999))
        #expect(told == toldBefore + ["transaction(t_3)"])
    }

    // MARK: Live

    @Test("money received or sent goes on top of the list, with no fetch, and the new first page is told to Home")
    func liveMoney() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let fetches = account.calls.count
        #expect(state?.moneyArrivedOnTop == false)
        sut.live(request: .init(update: .event(.moneyReceived(incoming(1), from: "Jordan R.", isTopUp: false))))
        #expect(state?.transactions[0] == incoming(1))
        #expect(state?.transactions.count == 51)
        #expect(state?.moneyArrivedOnTop == true, "the state that put money on top says so")
        #expect(sut.state.moneyArrivedOnTop == false, "and only while it is presented")
        #expect(told.last == "firstPage(t_live_1 of 51, c50)")
        sut.live(request: .init(update: .event(.moneySent(incoming(2)))))
        #expect(state?.transactions[0] == incoming(2))
        #expect(state?.transactions[1] == incoming(1))
        #expect(told.last == "firstPage(t_live_2 of 52, c50)")
        #expect(account.calls.count == fetches)
    }

    @Test("the same transaction twice (a catch-up after a refresh) is listed once; a search's list is left alone")
    func liveDuplicatesAndSearch() async {
        account.pages.set(.success(["": firstPage(), "Merchant": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.live(request: .init(update: .event(.moneySent(incoming(2)))))
        let presented = presenter.presentUpdateCalls.count
        let toldBefore = told
        sut.live(request: .init(update: .event(.moneySent(incoming(2)))))
        #expect(presenter.presentUpdateCalls.count == presented)
        #expect(told == toldBefore)
        #expect(state?.transactions.count == 51)
        sut.search(request: .init(query: "Merchant"))
        await tasks.settle()
        let toldSearching = told
        sut.live(request: .init(update: .event(.moneySent(incoming(3)))))
        #expect(state?.transactions[0] == Seeds.transaction(1))
        #expect(told == toldSearching)
    }

    /// Issue 42, point 2: a line the stream brought while a refresh was running was dropped.
    @Test("money that arrives while a fetch runs goes on top of its answer, once, and Home is told the page with it")
    func arrivalDuringFetch() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.refresh(request: .init())
        let arrived = Transaction(
            id: "t_new", amount: Money(amountMinor: 300, currency: "USD"), merchant: "Jordan R.", category: "Transfers",
            createdAt: Seeds.now
        )
        sut.live(request: .init(update: .event(.moneyReceived(arrived, from: "Jordan R.", isTopUp: false))))
        sut.live(request: .init(update: .event(.moneyReceived(arrived, from: "Jordan R.", isTopUp: false))))
        await tasks.settle()
        let transactions = state?.transactions
        #expect(transactions?[0] == arrived)
        #expect(transactions?.count == 51, "the first page and the arrival, once")
        #expect(told.suffix(2) == ["firstPage(t_new of 51, c50)", "loaded"])
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(state?.transactions.count == 50, "kept for that fetch only: the next answer is the server's")
    }

    @Test("money that arrives while a search is fetched is not put on the search's rows")
    func arrivalDuringSearch() async {
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        let sut = makeSUT()
        sut.search(request: .init(query: "Merchant 7"))
        sut.live(request: .init(update: .event(.moneySent(incoming(1)))))
        await tasks.settle()
        #expect(state?.query == "Merchant 7")
        #expect(state?.transactions == [Seeds.transaction(7)])
    }

    /// Issue 44, point 3: the stream's catch-up brings what was missed; a reconnect fetches nothing that did not fail.
    @Test("back online with nothing failed fetches nothing and presents nothing; offline does nothing either")
    func onlineFetchesNothing() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let before = account.calls.count
        let toldBefore = told
        presenter.reset()
        sut.live(request: .init(update: .online))
        sut.live(request: .init(update: .offline))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.calls.count == before, "no refresh of everything")
        #expect(presenter.calls.isEmpty, "nothing changed, nothing presented")
        #expect(told == toldBefore)
    }

    /// Issue 42, point 9: the banner of a refresh that failed while offline stayed after the server came back.
    @Test("back online after a failed load: the list is fetched again and the error goes, no key pressed")
    func onlineRetriesFailedLoad() async {
        account.pages.set(.success(["": firstPage()]))
        account.pageFailure.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(state?.error == .unreachable)
        #expect(state?.transactions.isEmpty == true)
        account.pageFailure.set(.success(()))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == [nil, nil])
        #expect(state?.error == nil)
        #expect(state?.transactions.count == 50)
        #expect(told.suffix(2) == ["firstPage(t_1 of 50, c50)", "loaded"])
    }

    @Test("back online after a failed search: the search is what is tried again")
    func onlineRetriesFailedSearch() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        account.pageFailure.set(.failure(.unreachable))
        sut.search(request: .init(query: "coffee"))
        await tasks.settle()
        account.pageFailure.set(.success(()))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == [nil, "coffee", "coffee"])
        #expect(state?.query == "coffee")
        #expect(state?.error == nil)
    }
}
