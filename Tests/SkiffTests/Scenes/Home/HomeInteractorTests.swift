import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("HomeInteractor", .timeLimit(.minutes(3)))
struct HomeInteractorTests {
    let presenter = HomePresentationLogicSpy()
    let account = AccountWorkerDouble.succeeding
    let cards = CardWorkerDouble.succeeding
    let auth = AuthWorkerDouble.succeeding
    let sessions = SessionStoreDouble(Seeds.session)
    let cache = CacheStoreDouble()
    let preferences = PreferencesStoreDouble()
    let tasks = TaskTracker()

    func makeSUT(clock: SceneClock = .immediate()) -> HomeInteractor {
        HomeInteractor(
            presenter: presenter, account: account, cards: cards, auth: auth, sessions: sessions, cache: cache,
            preferences: preferences, session: Seeds.session, clock: clock, timeZone: .gmt, tasks: tasks
        )
    }

    func firstPage() -> TransactionPage {
        TransactionPage(items: (1...50).map { Seeds.transaction($0) }, nextCursor: "c50")
    }

    @Test("load fetches summary, cards and the first page, then caches them")
    func load() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.activity == .loading)
        await tasks.settle()
        let state = presenter.presentUpdateCalls.last!.state
        #expect(state.summary == Seeds.summary)
        #expect(state.cards == [Seeds.issuedCard])
        #expect(state.transactions.count == 50)
        #expect(state.nextCursor == "c50")
        #expect(state.activity == .idle)
        #expect(account.calls.last?.limit == 50)
        #expect(cache.loadHome(userID: "u_1")?.snapshot.transactions.count == 50)
    }

    @Test("the cached Home shows at once, marked with when it was saved")
    func cachedFirst() async {
        let saved = Seeds.now.addingTimeInterval(-3600)
        cache.saveHome(HomeSnapshot(summary: Seeds.summary, cards: [], transactions: [Seeds.transaction(1)], nextCursor: nil), userID: "u_1", at: saved)
        account.gate = Gate()
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.cachedAt == saved)
        #expect(presenter.presentUpdateCalls.first?.state.transactions.count == 1)
        #expect(presenter.presentUpdateCalls.first?.state.activity == .loading)
        sut.back(request: .init())
    }

    @Test("offline with a cache keeps the cached data and says since when")
    func offline() async {
        let saved = Seeds.now.addingTimeInterval(-3600)
        cache.saveHome(HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: [], nextCursor: nil), userID: "u_1", at: saved)
        account.summaryResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let state = presenter.presentUpdateCalls.last!.state
        #expect(state.error == .unreachable)
        #expect(state.cachedAt == saved)
        #expect(state.summary == Seeds.summary)
        #expect(state.cards == [Seeds.issuedCard])
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
        #expect(sut.state.transactions[20] != nil)
        #expect(sut.state.transactions[100] == nil)
        #expect(sut.state.transactions[280] != nil)
        #expect(presenter.presentUpdateCalls.last?.state.transactions[100] == nil)
        let calls = account.calls.count
        sut.scroll(request: .init(visibleRows: 100..<120))
        await tasks.settle()
        #expect(account.calls.all.dropFirst(calls).map(\.cursor) == ["c50", "c100", "c150"])
        #expect(sut.state.transactions[100]?.id == "t_101")
        #expect(sut.state.transactions[280] == nil)
        var routes: [HomeRoute] = []
        sut.route = { routes.append($0) }
        sut.selectTransaction(request: .init(index: 280))
        #expect(routes.isEmpty)
    }

    @Test("scrolling near the end loads the next page of 50 once")
    func loadMore() async {
        account.pages.set(.success(["": firstPage(), "c50": TransactionPage(items: (51...60).map { Seeds.transaction($0) }, nextCursor: nil)]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.loadMore(request: .init())
        sut.loadMore(request: .init())
        await tasks.settle()
        #expect(account.calls.all.map(\.cursor) == [nil, "c50"])
        #expect(presenter.presentUpdateCalls.last?.state.transactions.count == 60)
        #expect(presenter.presentUpdateCalls.last?.state.nextCursor == nil)
        sut.loadMore(request: .init())
        #expect(account.calls.count == 2)
    }

    @Test("search asks the server with the query and replaces the list")
    func search() async {
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        let sut = makeSUT()
        sut.search(request: .init(query: " coffee "))
        await tasks.settle()
        #expect(account.calls.last?.query == "coffee")
        #expect(presenter.presentUpdateCalls.last?.state.query == "coffee")
        #expect(presenter.presentUpdateCalls.last?.state.transactions == [Seeds.transaction(7)])
        sut.search(request: .init(query: ""))
        await tasks.settle()
        #expect(account.calls.last?.query == nil)
    }

    @Test("a search the server answered from its newest transactions only says so, until the next search")
    func shortSearchLimit() async {
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil, searchLimit: 10_000)]))
        let sut = makeSUT()
        sut.search(request: .init(query: "bp"))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.searchLimit == 10_000)
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        sut.search(request: .init(query: "bpx"))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.searchLimit == nil)
    }

    @Test("a search that fails keeps the list and the query it belongs to")
    func searchOffline() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        account.pageFailure.set(.failure(.unreachable))
        sut.search(request: .init(query: "coffee"))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.transactions.count == 50)
        #expect(presenter.presentUpdateCalls.last?.state.query == "")
        #expect(presenter.presentUpdateCalls.last?.state.error == .unreachable)
    }

    @Test("Esc stops a refresh that is still loading; its late answer is dropped")
    func cancelRefresh() async {
        let gate = Gate()
        account.gate = gate
        let sut = makeSUT()
        sut.load(request: .init())
        sut.back(request: .init())
        #expect(presenter.presentUpdateCalls.last?.state.activity == .idle)
        await tasks.settle()
        #expect(!sut.fetch.isRunning)
        #expect(presenter.presentUpdateCalls.last?.state.summary == nil)
    }

    @Test("a refresh during logout does not cancel the logout")
    func logoutNotCancelled() async {
        let gate = Gate()
        auth.gate = gate
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.logout(request: .init())
        sut.refresh(request: .init())
        sut.back(request: .init())
        #expect(!sut.fetch.isRunning)
        gate.open()
        await tasks.settle()
        #expect(auth.logouts.count == 1)
        guard case .loggedOut = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("search results are not written over the cached Home")
    func searchNotCached() async {
        let sut = makeSUT()
        sut.search(request: .init(query: "coffee"))
        await tasks.settle()
        #expect(cache.loadHome(userID: "u_1") == nil)
    }

    @Test("Enter on a transaction routes to its detail")
    func select() async {
        account.pages.set(.success(["": firstPage()]))
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.selectTransaction(request: .init(index: 2))
        sut.selectTransaction(request: .init(index: 999))
        guard routes.count == 1, case .transaction(let t) = routes[0] else {
            Issue.record("got \(routes)")
            return
        }
        #expect(t.id == "t_3")
    }

    @Test("v opens activation for the inactive issued card, or explains why not")
    func activate() async {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.navigate(request: .init(destination: .activateCard))
        guard case .activateCard(Seeds.issuedCard) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        var active = Seeds.issuedCard
        active.status = .active
        sut.cardUpdated(request: .init(card: active))
        sut.navigate(request: .init(destination: .activateCard))
        #expect(routes.count == 1)
        #expect(presenter.presentUpdateCalls.last?.state.notice == .cardAlreadyActive)
    }

    @Test("a card added elsewhere appears without a reload")
    func cardAdded() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let before = account.calls.count
        sut.cardAdded(request: .init(card: Seeds.externalCard))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, Seeds.externalCard])
        #expect(presenter.presentUpdateCalls.last?.state.notice == .cardAdded(Seeds.externalCard))
        #expect(account.calls.count == before)
        #expect(cache.loadHome(userID: "u_1")?.snapshot.cards.count == 2)
    }

    @Test("a notice is shown until the next key, which dismisses it once; without one a key presents nothing")
    func dismissNotice() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        presenter.reset()
        sut.dismissNotice(request: .init())
        #expect(presenter.calls.isEmpty)
        sut.cardAdded(request: .init(card: Seeds.externalCard))
        #expect(presenter.presentUpdateCalls.last?.state.notice == .cardAdded(Seeds.externalCard))
        presenter.reset()
        sut.dismissNotice(request: .init())
        #expect(presenter.calls == ["presentUpdate"])
        #expect(presenter.presentUpdateCalls.last?.state.notice == nil)
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, Seeds.externalCard])
        sut.dismissNotice(request: .init())
        #expect(presenter.calls == ["presentUpdate"])
    }

    @Test("v does not open activation for a frozen card, and says how to unfreeze it")
    func activateFrozen() async {
        var frozen = Seeds.issuedCard
        frozen.frozen = true
        cards.cardsResult.set(.success([frozen]))
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.navigate(request: .init(destination: .activateCard))
        #expect(routes.isEmpty)
        #expect(presenter.presentUpdateCalls.last?.state.notice == .unfreezeCardFirst)
    }

    @Test("c opens Cards with the cards Home has")
    func openCards() async {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.navigate(request: .init(destination: .cards))
        guard case .cards([Seeds.issuedCard]) = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("a card frozen or removed elsewhere changes Home without a reload, and the cache with it")
    func cardChangedElsewhere() async {
        cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let before = account.calls.count
        var frozen = Seeds.externalCard
        frozen.frozen = true
        sut.cardUpdated(request: .init(card: frozen))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, frozen])
        sut.cardRemoved(request: .init(card: frozen))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard])
        #expect(account.calls.count == before)
        #expect(cache.loadHome(userID: "u_1")?.snapshot.cards == [Seeds.issuedCard])
    }

    @Test("reading notifications updates the badge")
    func unread() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.unreadChanged(request: .init(count: 0))
        #expect(presenter.presentUpdateCalls.last?.state.summary?.unreadNotifications == 0)
    }

    // MARK: Live

    func incoming(_ n: Int) -> Transaction {
        Transaction(
            id: "t_live_\(n)", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.",
            category: "Transfers", createdAt: Seeds.now
        )
    }

    @Test("money received live goes to the top of the list, moves the balance and is told once, with no fetch")
    func liveMoneyReceived() async {
        account.pages.set(.success(["": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let fetches = account.calls.count
        sut.live(request: .init(update: .event(.moneyReceived(incoming(1), from: "Jordan R.", isTopUp: false))))
        sut.live(request: .init(update: .event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD")))))
        let first = presenter.presentUpdateCalls[presenter.presentUpdateCalls.count - 2].state
        #expect(first.transactions[0] == incoming(1))
        #expect(first.transactions.count == 51)
        #expect(first.notice == .moneyReceived(Money(amountMinor: 1_250, currency: "USD"), from: "Jordan R.", isTopUp: false))
        let last = presenter.presentUpdateCalls.last!.state
        #expect(last.summary?.balance == Money(amountMinor: 124_706, currency: "USD"))
        // The notice stays through the balance that follows it, until a key.
        #expect(last.notice == first.notice)
        sut.dismissNotice(request: .init())
        #expect(presenter.presentUpdateCalls.last?.state.notice == nil)
        #expect(account.calls.count == fetches)
        #expect(cache.loadHome(userID: "u_1")?.snapshot.transactions.first == incoming(1))
    }

    @Test("the same transaction twice (a catch-up after a refresh) is listed once; a search's list is left alone")
    func liveDuplicatesAndSearch() async {
        account.pages.set(.success(["": firstPage(), "Merchant": firstPage()]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.live(request: .init(update: .event(.moneySent(incoming(2)))))
        let presented = presenter.presentUpdateCalls.count
        sut.live(request: .init(update: .event(.moneySent(incoming(2)))))
        #expect(presenter.presentUpdateCalls.count == presented)
        #expect(presenter.presentUpdateCalls.last?.state.transactions.count == 51)
        sut.search(request: .init(query: "Merchant"))
        await tasks.settle()
        sut.live(request: .init(update: .event(.moneySent(incoming(3)))))
        #expect(presenter.presentUpdateCalls.last?.state.transactions[0] == Seeds.transaction(1))
    }

    @Test("offline and online are presented once each; unread and card changes follow the stream")
    func liveConnectionUnreadAndCards() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.live(request: .init(update: .offline))
        #expect(presenter.presentUpdateCalls.last?.state.isOffline == true)
        let presented = presenter.presentUpdateCalls.count
        sut.live(request: .init(update: .offline))
        #expect(presenter.presentUpdateCalls.count == presented)
        sut.live(request: .init(update: .online))
        #expect(presenter.presentUpdateCalls.last?.state.isOffline == false)
        sut.live(request: .init(update: .event(.unreadChanged(7))))
        #expect(presenter.presentUpdateCalls.last?.state.summary?.unreadNotifications == 7)
        cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        sut.live(request: .init(update: .event(.cardChanged)))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, Seeds.externalCard])
    }

    /// Issue 42, point 9: the banner of a refresh that failed while offline stayed after the server came back.
    @Test("back online after a failed refresh: everything is fetched again and the error goes, no key pressed")
    func backOnlineClearsErrors() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        sut.live(request: .init(update: .offline))
        account.summaryResult.set(.failure(.unreachable))
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.error == .unreachable)
        account.summaryResult.set(.success(Seeds.summary))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.error == nil)
        #expect(presenter.presentUpdateCalls.last?.state.isOffline == false)
    }

    /// Issue 42, point 2: a line the stream brought while a refresh was running was dropped.
    @Test("money that arrives while a fetch runs goes on top of its answer, once")
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
        await tasks.settle()
        let transactions = presenter.presentUpdateCalls.last?.state.transactions
        #expect(transactions?[0] == arrived)
        #expect(transactions?.count == 51, "the first page and the arrival, once")
    }

    @Test("log out says it is logging out first, then revokes on the server, forgets the session and the cache, and routes to Login")
    func logout() async {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.logout(request: .init())
        guard case .loggingOut? = routes.first, routes.count == 1 else {
            Issue.record("expected only .loggingOut before the answer, got \(routes)")
            return
        }
        await tasks.settle()
        #expect(auth.logouts.count == 1)
        #expect(sessions.load() == nil)
        #expect(cache.clears == 1)
        guard case .loggedOut = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("log out still forgets everything when the server cannot be reached")
    func logoutOffline() async {
        auth.logoutResult.set(.failure(.unreachable))
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.logout(request: .init())
        await tasks.settle()
        #expect(sessions.load() == nil)
        #expect(routes.map { "\($0)" } == ["loggingOut", "loggedOut"])
    }

    // MARK: Spending

    @Test("loadSpending asks for this month's spending and presents it, loading first")
    func loadSpending() async {
        let sut = makeSUT()
        sut.loadSpending(request: .init())
        #expect(presenter.presentLoadSpendingCalls.first?.isLoading == true)
        #expect(presenter.presentLoadSpendingCalls.first?.isShown == true)
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
        let last = presenter.presentLoadSpendingCalls.last
        #expect(last?.spending == Seeds.spending)
        #expect(last?.isLoading == false)
        #expect(last?.error == nil)
    }

    @Test("a failed spending load presents the error and keeps what was shown")
    func loadSpendingFails() async {
        let sut = makeSUT()
        sut.loadSpending(request: .init())
        await tasks.settle()
        account.spendingResult.set(.failure(.unreachable))
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 2)
        #expect(presenter.presentLoadSpendingCalls.last?.error == .unreachable)
        #expect(presenter.presentLoadSpendingCalls.last?.spending == Seeds.spending)
    }

    @Test("a hidden panel loads nothing; s shows it, loads it and remembers it, s again hides it")
    func toggleSpending() async {
        preferences.saveHidesSpending(true)
        let sut = makeSUT()
        sut.loadSpending(request: .init())
        sut.refresh(request: .init())
        await tasks.settle()
        #expect(account.spendingCalls.count == 0)
        #expect(presenter.presentLoadSpendingCalls.last?.isShown == false)

        sut.toggleSpending(request: .init())
        #expect(!preferences.hidesSpending())
        await tasks.settle()
        #expect(account.spendingCalls.count == 1)
        #expect(presenter.presentLoadSpendingCalls.last?.isShown == true)
        #expect(presenter.presentLoadSpendingCalls.last?.spending == Seeds.spending)

        sut.toggleSpending(request: .init())
        #expect(preferences.hidesSpending())
        #expect(presenter.presentLoadSpendingCalls.last?.isShown == false)
        #expect(account.spendingCalls.count == 1)
    }

    @Test("selecting a category shows its name as the search and loads the list filtered to it")
    func selectCategory() async {
        let sut = makeSUT()
        sut.loadSpending(request: .init())
        await tasks.settle()
        sut.selectCategory(request: .init(index: 1))
        #expect(presenter.presentSelectCategoryCalls.map(\.category) == ["Groceries"])
        await tasks.settle()
        #expect(account.calls.last?.query == "Groceries")
        #expect(presenter.presentUpdateCalls.last?.state.query == "Groceries")
        sut.selectCategory(request: .init(index: 9))
        #expect(presenter.presentSelectCategoryCalls.map(\.category) == ["Groceries"])
    }

    // MARK: Issue 42, point 10

    @Test("typing searches once typing pauses, on the scene's clock, for the last words typed; Enter searches at once")
    func searchAsYouType() async {
        let sleeps = HeldSleeps()
        account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(7)], nextCursor: nil)]))
        let sut = makeSUT(clock: SceneClock(now: { Seeds.now }, sleep: { try await sleeps.sleep(for: $0) }))
        for typed in ["c", "co", "cof"] { sut.search(request: .init(query: typed, isTyping: true)) }
        await tasks.settle(leaving: { sleeps.held })
        #expect(account.calls.count == 0, "nothing is searched while the person types")
        #expect(sleeps.durations == Array(repeating: HomeInteractor.typingPause, count: 3))
        #expect(sleeps.held == 1, "each key starts the pause again")
        sleeps.endAll()
        await tasks.settle()
        #expect(account.calls.all.map(\.query) == ["cof"])
        #expect(presenter.presentUpdateCalls.last?.state.query == "cof")
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
        sut.loadSpending(request: .init())
        await tasks.settle()
        sut.selectCategory(request: .init(index: 1))
        await tasks.settle()
        let state = sut.state
        #expect((0..<state.transactions.count).map { state.transactions[$0]?.id } == ["nov20", "refund", "nov2"])
        #expect(state.category == Home.State.CategoryFilter(name: "Groceries", month: "2026-11"))
        #expect(state.nextCursor == nil, "October's rows end it: nothing after them is November's")
        #expect(account.calls.all.map(\.cursor) == [nil, "c3"])
        #expect(account.calls.all.allSatisfy { $0.query == "Groceries" })

        sut.search(request: .init(query: "Groceries"))
        await tasks.settle()
        #expect(sut.state.category != nil, "Enter on the category's name keeps the category and month")
        sut.search(request: .init(query: "Groceries D", isTyping: true))
        await tasks.settle()
        #expect(sut.state.category == nil, "other words are searched as words")
        #expect(sut.state.query == "Groceries D")
    }

    @Test("every state presented carries now, from the scene's clock, so dates can leave out this year")
    func today() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.allSatisfy { $0.state.today == Seeds.now })
    }
}

/// A clock's waits that last until the test ends them, each counted with its length; a cancelled wait ends at once.
final class HeldSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var cancelled: Set<Int> = []
    private var asked: [Duration] = []
    private var nextID = 0

    /// The waits asked for, oldest first.
    var durations: [Duration] { lock.withLock { asked } }
    /// The waits still running.
    var held: Int { lock.withLock { waiting.count } }

    func sleep(for duration: Duration) async throws {
        let id = lock.withLock {
            nextID += 1
            asked.append(duration)
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let goesOn = lock.withLock {
                    guard !cancelled.contains(id) else { return false }
                    waiting[id] = continuation
                    return true
                }
                if !goesOn { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = lock.withLock {
                cancelled.insert(id)
                return waiting.removeValue(forKey: id)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Ends every wait still running.
    func endAll() {
        let all = lock.withLock {
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for continuation in all { continuation.resume() }
    }
}
