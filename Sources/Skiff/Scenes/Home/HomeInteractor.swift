import Foundation
import SkiffCore
import TerminalUI

@MainActor
protocol HomeBusinessLogic: AnyObject {
    func load(request: Home.Load.Request)
    func refresh(request: Home.Refresh.Request)
    func loadMore(request: Home.LoadMore.Request)
    func scroll(request: Home.Scroll.Request)
    func search(request: Home.Search.Request)
    func selectTransaction(request: Home.SelectTransaction.Request)
    func navigate(request: Home.Navigate.Request)
    func logout(request: Home.Logout.Request)
    func back(request: Home.Back.Request)
    func cardAdded(request: Home.CardAdded.Request)
    func cardUpdated(request: Home.CardUpdated.Request)
    func unreadChanged(request: Home.UnreadChanged.Request)
    func dismissNotice(request: Home.DismissNotice.Request)
    func cardRemoved(request: Home.CardRemoved.Request)
    func loadSpending(request: Home.LoadSpending.Request)
    func toggleSpending(request: Home.ToggleSpending.Request)
    func selectCategory(request: Home.SelectCategory.Request)
    func live(request: Home.Live.Request)
}

/// Where Home sends the person next.
enum HomeRoute: Sendable {
    case addCard
    case activateCard(Card)
    case notifications
    /// Cards, shown at once with the cards Home has.
    case cards([Card])
    case transaction(Transaction)
    /// Send money, from the balance Home shows.
    case sendMoney(balance: Money)
    /// Top up from one of the cards Home has, into the wallet holding the balance Home shows.
    case topUp(cards: [Card], balance: Money)
    /// The person asked to log out and the server is being told: whatever ends the session meanwhile (the live
    /// stream saying it was revoked) is this logout, not an expiry.
    case loggingOut
    case loggedOut
}

/// Shows the cached Home at once, refreshes it from the server, pages and searches transactions, loads the
/// month's spending while its panel is shown, and takes in what other scenes changed (a new card, a card
/// activated, notifications read).
@MainActor
final class HomeInteractor: HomeBusinessLogic {
    static let pageSize = 50
    /// How long typing in the search row pauses before the search goes to the server.
    static let typingPause: Duration = .milliseconds(300)

    /// What the list is searched for: words, or one category of one month.
    private struct Search: Equatable {
        var query: String
        var category: Home.State.CategoryFilter?
    }

    private let presenter: any HomePresentationLogic
    private let account: any AccountWorking
    private let cardsWorker: any CardWorking
    private let cache: any CacheStoring
    /// Logs out.
    private let sessionWorker: SessionWorker
    private let preferences: any PreferencesStoring
    private let session: Session
    private let clock: SceneClock
    /// The person's time zone, in which the list's months are counted.
    private let timeZone: TimeZone
    var route: (HomeRoute) -> Void = { _ in }

    private(set) var state = Home.State()
    /// A search whose answer never came (the server failed or was unreachable): refreshing tries it again.
    private var failedSearch: Search?
    /// What the search row asked for last: waiting for typing to pause, on its way, or shown.
    private var searchedFor = ""
    /// The pause after a key typed into the search row, before its words are searched.
    let searchPause: RequestInFlight
    /// Summary, cards and the first page, for a load, refresh or search.
    let fetch: RequestInFlight
    /// Lines the live stream brought while `fetch` ran, put on top of its answer.
    private var arrivedDuringFetch: [Transaction] = []
    /// The next page of transactions.
    let page: RequestInFlight
    /// A page near the screen fetched again after it was let go.
    let refill: RequestInFlight
    /// The rows on screen, as the list last said.
    private var visibleRows: Range<Int>?
    let logoutRequest: RequestInFlight
    /// This month's spending, for the Spending panel.
    let spendingRequest: RequestInFlight
    /// The cards, fetched again after a live event said one changed.
    let cardsRequest: RequestInFlight
    private(set) var spending: MonthlySpending?
    private var spendingError: NetworkError?
    private var showsSpending: Bool
    /// Whether the screen shows a notice, which the next key dismisses.
    private var showsNotice = false
    /// The notice on screen, which live updates keep there until that key.
    private var shownNotice: Home.State.Notice?

    init(
        presenter: any HomePresentationLogic, account: any AccountWorking, cards: any CardWorking,
        auth: any AuthWorking, sessions: any SessionStoring, cache: any CacheStoring,
        preferences: any PreferencesStoring, session: Session, clock: SceneClock = .live, timeZone: TimeZone = .current,
        tasks: TaskTracker
    ) {
        self.presenter = presenter
        self.account = account
        self.cardsWorker = cards
        self.cache = cache
        sessionWorker = SessionWorker(auth: auth, sessions: sessions, cache: cache)
        self.preferences = preferences
        showsSpending = !preferences.hidesSpending()
        self.session = session
        self.clock = clock
        self.timeZone = timeZone
        state.transactions = TransactionWindow(timeZone: timeZone)
        searchPause = RequestInFlight(tasks: tasks)
        fetch = RequestInFlight(tasks: tasks)
        page = RequestInFlight(tasks: tasks)
        refill = RequestInFlight(tasks: tasks)
        logoutRequest = RequestInFlight(tasks: tasks)
        spendingRequest = RequestInFlight(tasks: tasks)
        cardsRequest = RequestInFlight(tasks: tasks)
    }

    /// Presents the whole state; a notice in it is told this once.
    private func present() {
        state.today = clock.now()
        presenter.presentUpdate(response: .init(state: state))
        showsNotice = state.notice != nil
        shownNotice = state.notice
        state.notice = nil
    }

    func load(request: Home.Load.Request) {
        if let cached = cache.loadHome(userID: session.user.id) {
            apply(cached.snapshot)
            state.cachedAt = cached.savedAt
        }
        fetchAll(currentSearch)
    }

    /// What the list shows now.
    private var currentSearch: Search { Search(query: state.query, category: state.category) }

    func refresh(request: Home.Refresh.Request) {
        // Words still waiting for typing to pause are what the person wants to see.
        let typed = searchPause.isRunning ? Search(query: searchedFor, category: nil) : nil
        fetchAll(failedSearch ?? typed ?? currentSearch)
        if showsSpending { loadSpending(request: .init()) }
    }

    private func apply(_ snapshot: HomeSnapshot) {
        state.summary = snapshot.summary
        state.cards = snapshot.cards
        state.transactions = TransactionWindow(
            firstPage: snapshot.transactions, nextCursor: snapshot.nextCursor, timeZone: timeZone
        )
        state.searchLimit = snapshot.searchLimit
    }

    /// Loads summary, cards and the first page for `search`; what is on screen stays until the answer replaces it.
    private func fetchAll(_ search: Search) {
        guard !logoutRequest.isRunning else { return }
        abandonLoads()
        searchedFor = search.query
        let query = search.query.isEmpty ? nil : search.query
        state.activity = .loading
        state.error = nil
        present()
        fetch.start({ [account, cardsWorker] in
            async let summary = Result.capture { () async throws(NetworkError) in try await account.summary() }
            async let cards = Result.capture { () async throws(NetworkError) in try await cardsWorker.cards() }
            async let page = Result.capture { () async throws(NetworkError) in
                try await account.transactions(limit: HomeInteractor.pageSize, cursor: nil, query: query)
            }
            let (s, c, p) = await (summary, cards, page)
            return Result { () throws(NetworkError) in
                let page = try p.get()
                return HomeSnapshot(
                    summary: try s.get(), cards: try c.get(), transactions: page.items, nextCursor: page.nextCursor,
                    searchLimit: page.searchLimit
                )
            }
        }, then: { [weak self] in self?.finishFetch($0, search: search) })
    }

    private func finishFetch(_ result: Result<HomeSnapshot, NetworkError>, search: Search) {
        state.activity = .idle
        defer { arrivedDuringFetch = [] }
        let query = search.query.isEmpty ? nil : search.query
        switch result {
        case .success(var snapshot):
            if let category = search.category {
                (snapshot.transactions, snapshot.nextCursor) = kept(snapshot.transactions, next: snapshot.nextCursor, in: category)
            }
            apply(snapshot)
            state.query = search.query
            state.category = search.category
            if query == nil {
                for transaction in arrivedDuringFetch { _ = state.transactions.prepend(transaction) }
            }
            failedSearch = nil
            state.cachedAt = nil
            if query == nil { cache.saveHome(snapshot, userID: session.user.id, at: clock.now()) }
        case .failure(.cancelled):
            break
        case .failure(let error):
            state.error = error
            failedSearch = search == currentSearch ? nil : search
        }
        present()
        continueCategory()
    }

    /// The rows of a page the list keeps of those the server matched for `category`'s name: the ones in that
    /// category and its month (the contract has no filter for either), with the cursor of the next page, or nil
    /// once the rows have gone past the month (they come newest first: none after can be in it).
    private func kept(
        _ items: [Transaction], next: String?, in category: Home.State.CategoryFilter
    ) -> (items: [Transaction], next: String?) {
        guard let month = CalendarMonth(category.month)?.instants else { return (items.filter { $0.category == category.name }, next) }
        let kept = items.filter { $0.category == category.name && month.contains($0.createdAt) }
        let pastMonth = items.last.map { $0.createdAt < month.lowerBound } ?? false
        return (kept, pastMonth ? nil : next)
    }

    /// With a category picked, the pages after one that may still hold its month's rows are fetched at once: the
    /// title counts them all, and a page that kept no rows gives the list nothing to scroll to.
    private func continueCategory() {
        guard state.category != nil, state.nextCursor != nil, state.error == nil else { return }
        loadMore(request: .init())
    }

    func loadMore(request: Home.LoadMore.Request) {
        guard !page.isRunning, !fetch.isRunning, !logoutRequest.isRunning, let cursor = state.nextCursor, state.cachedAt == nil
        else { return }
        let query = state.query.isEmpty ? nil : state.query
        state.activity = .loadingMore
        present()
        page.call({ [account] () async throws(NetworkError) in
            try await account.transactions(limit: HomeInteractor.pageSize, cursor: cursor, query: query)
        }, then: { [weak self] in self?.finishPage($0, cursor: cursor) })
    }

    private func finishPage(_ result: Result<TransactionPage, NetworkError>, cursor: String) {
        state.activity = .idle
        switch result {
        case .success(let page):
            let (items, next) = state.category.map { kept(page.items, next: page.nextCursor, in: $0) } ?? (page.items, page.nextCursor)
            state.transactions.append(items, fetchedWith: cursor, next: next)
        case .failure(.cancelled):
            break
        case .failure(let error):
            state.error = error
        }
        present()
        continueCategory()
    }

    /// Lets go of the pages far from the rows on screen and fetches again those near them that were let go, one at
    /// a time, so memory stays flat however far the person scrolls.
    func scroll(request: Home.Scroll.Request) {
        visibleRows = request.visibleRows
        let near = state.transactions.pages(near: request.visibleRows, pageSize: Self.pageSize)
        if state.transactions.letGo(outside: near) { present() }
        refillNearScreen()
    }

    private func refillNearScreen() {
        guard !refill.isRunning, !fetch.isRunning, let visibleRows,
              let missing = state.transactions.missingPage(in: state.transactions.pages(near: visibleRows, pageSize: Self.pageSize))
        else { return }
        let query = state.query.isEmpty ? nil : state.query
        refill.call({ [account] () async throws(NetworkError) in
            try await account.transactions(limit: HomeInteractor.pageSize, cursor: missing.cursor, query: query)
        }, then: { [weak self] result in self?.finishRefill(result, page: missing.index) })
    }

    private func finishRefill(_ result: Result<TransactionPage, NetworkError>, page: Int) {
        switch result {
        case .success(let answer):
            let items = state.category.map { kept(answer.items, next: nil, in: $0).items } ?? answer.items
            state.transactions.refill(page: page, with: items)
            present()
            refillNearScreen()
        case .failure(.cancelled):
            break
        case .failure(let error):
            state.error = error
            present()
        }
    }

    /// Stops the load and the page in flight; their late answers are dropped, never shown.
    private func abandonLoads() {
        searchPause.abandon()
        refill.abandon()
        fetch.abandon()
        page.abandon()
    }

    /// Typed words are searched once typing pauses (`typingPause`, on the scene's clock); Enter searches at once,
    /// the same words again too (a search that failed, or to see what is new). Enter on a category's name, as
    /// picking it in the Spending panel put it there, keeps that category and month.
    func search(request: Home.Search.Request) {
        let query = request.query.trimmingCharacters(in: .whitespaces)
        searchPause.abandon()
        guard request.isTyping else {
            let search = Search(query: query, category: state.category?.name == query ? state.category : nil)
            // Nothing searched and nothing asked: the whole list is what shows.
            guard !(query.isEmpty && search == currentSearch && !fetch.isRunning) else {
                searchedFor = ""
                return
            }
            fetchAll(search)
            return
        }
        guard query != searchedFor else { return }
        searchedFor = query
        searchPause.start({ [clock] in
            (try? await clock.sleep(HomeInteractor.typingPause)) != nil
        }, then: { [weak self] paused in
            if paused { self?.fetchAll(Search(query: query, category: nil)) }
        })
    }

    func back(request: Home.Back.Request) {
        guard !logoutRequest.isRunning, fetch.isRunning || page.isRunning else { return }
        abandonLoads()
        state.activity = .idle
        present()
    }

    func selectTransaction(request: Home.SelectTransaction.Request) {
        guard let transaction = state.transactions[request.index] else { return }
        route(.transaction(transaction))
    }

    func navigate(request: Home.Navigate.Request) {
        switch request.destination {
        case .addCard:
            route(.addCard)
        case .notifications:
            route(.notifications)
        case .cards:
            route(.cards(state.cards))
        case .sendMoney:
            // Until Home knows the balance there is nothing to send from.
            if let balance = state.summary?.balance { route(.sendMoney(balance: balance)) }
        case .topUp:
            // The cards come with the balance: until Home has them, there is nothing to choose from.
            if let balance = state.summary?.balance { route(.topUp(cards: state.cards, balance: balance)) }
        case .activateCard:
            if let card = state.cards.first(where: { $0.kind == .issued && $0.status == .inactive }) {
                guard !card.frozen else {
                    state.notice = .unfreezeCardFirst
                    present()
                    return
                }
                route(.activateCard(card))
            } else {
                state.notice = state.cards.contains { $0.kind == .issued } ? .cardAlreadyActive : .noCardToActivate
                present()
            }
        }
    }

    func logout(request: Home.Logout.Request) {
        guard !logoutRequest.isRunning else { return }
        abandonLoads()
        spendingRequest.abandon()
        state.activity = .loading
        present()
        route(.loggingOut)
        logoutRequest.start({ [sessionWorker] in await sessionWorker.end() }, then: { [weak self] _ in
            self?.route(.loggedOut)
        })
    }

    // MARK: Spending

    /// Loads this month's spending while the panel is shown; what is on screen stays until the answer replaces it.
    func loadSpending(request: Home.LoadSpending.Request) {
        guard showsSpending, !logoutRequest.isRunning else {
            presentSpending()
            return
        }
        spendingRequest.abandon()
        spendingError = nil
        spendingRequest.call({ [account] () async throws(NetworkError) in try await account.spending() }, then: { [weak self] result in
            self?.finishSpending(result)
        })
        presentSpending()
    }

    private func finishSpending(_ result: Result<MonthlySpending, NetworkError>) {
        switch result {
        case .success(let spending):
            self.spending = spending
        case .failure(.cancelled):
            break
        case .failure(let error):
            spendingError = error
        }
        presentSpending()
    }

    func toggleSpending(request: Home.ToggleSpending.Request) {
        showsSpending.toggle()
        preferences.saveHidesSpending(!showsSpending)
        if showsSpending {
            loadSpending(request: .init())
        } else {
            spendingRequest.abandon()
            presentSpending()
        }
    }

    /// Lists the category's transactions in the panel's month: the server is searched for its name, and the rows
    /// it answers are kept only when in that category and month.
    func selectCategory(request: Home.SelectCategory.Request) {
        guard showsSpending, let spending, spending.categories.indices.contains(request.index) else { return }
        let category = Home.State.CategoryFilter(name: spending.categories[request.index].name, month: spending.month)
        presenter.presentSelectCategory(response: .init(category: category.name))
        fetchAll(Search(query: category.name, category: category))
    }

    private func presentSpending() {
        presenter.presentLoadSpending(response: .init(
            spending: spending, isShown: showsSpending, isLoading: spendingRequest.isRunning, error: spendingError
        ))
    }

    // MARK: What other scenes changed

    func cardAdded(request: Home.CardAdded.Request) {
        let card = request.card
        state.cards.removeAll { $0.id == card.id }
        state.cards.append(card)
        state.notice = .cardAdded(card)
        saveCurrent()
        present()
    }

    func cardUpdated(request: Home.CardUpdated.Request) {
        let card = request.card
        if let index = state.cards.firstIndex(where: { $0.id == card.id }) {
            state.cards[index] = card
        } else {
            state.cards.append(card)
        }
        if card.status == .active && card.kind == .issued { state.notice = .cardActivated(card) }
        saveCurrent()
        present()
    }

    func cardRemoved(request: Home.CardRemoved.Request) {
        state.cards.removeAll { $0.id == request.card.id }
        saveCurrent()
        present()
    }

    func unreadChanged(request: Home.UnreadChanged.Request) {
        state.summary?.unreadNotifications = request.count
        saveCurrent()
        present()
    }

    // MARK: Live

    /// An event from the live stream, or its connection coming and going: the balance, the top of the list, the
    /// unread count and the cards follow it; money in is told once (a notice until the next key).
    func live(request: Home.Live.Request) {
        switch request.update {
        case .online:
            guard state.isOffline else { return }
            state.isOffline = false
            // Back: what failed meanwhile (a refresh, the spending panel) is fetched again, so every error on
            // screen goes by itself.
            refresh(request: .init())
        case .offline:
            guard !state.isOffline else { return }
            state.isOffline = true
        case .event(let event):
            guard apply(event) else { return }
            saveCurrent()
        }
        // Nothing was typed: what the screen tells stays ("Received …" with the balance that follows it).
        if state.notice == nil, showsNotice { state.notice = shownNotice }
        present()
    }

    /// Applies `event` to the state; false when it changes nothing shown.
    private func apply(_ event: LiveEvent) -> Bool {
        switch event {
        case .moneyReceived(let transaction, let from, let isTopUp):
            addAtTop(transaction)
            state.notice = .moneyReceived(transaction.amount, from: from, isTopUp: isTopUp)
        case .moneySent(let transaction):
            return addAtTop(transaction)
        case .balanceChanged(let balance):
            guard state.summary != nil, state.summary?.balance != balance else { return false }
            state.summary?.balance = balance
        case .unreadChanged(let count):
            guard state.summary != nil, state.summary?.unreadNotifications != count else { return false }
            state.summary?.unreadNotifications = count
        case .cardChanged:
            reloadCards()
            return false
        case .sessionLocked, .sessionRevoked:
            // The app coordinator shows Lock or Login.
            return false
        }
        return true
    }

    /// Puts the transaction at the top of the list, unless a search filters it or the list has it already.
    @discardableResult
    private func addAtTop(_ transaction: Transaction) -> Bool {
        guard state.query.isEmpty else { return false }
        if fetch.isRunning {
            // The fetch in flight may have read the list before this line was written: it goes on top of its answer.
            arrivedDuringFetch.append(transaction)
            return false
        }
        return state.transactions.prepend(transaction)
    }

    private func reloadCards() {
        cardsRequest.call({ [cardsWorker] () async throws(NetworkError) in try await cardsWorker.cards() }, then: { [weak self] result in
            guard let self, case .success(let cards) = result, cards != self.state.cards else { return }
            self.state.cards = cards
            self.saveCurrent()
            if self.state.notice == nil, self.showsNotice { self.state.notice = self.shownNotice }
            self.present()
        })
    }

    /// A key was pressed: the notice on screen has been seen, and goes.
    func dismissNotice(request: Home.DismissNotice.Request) {
        guard showsNotice else { return }
        present()
    }

    private func saveCurrent() {
        guard let summary = state.summary, state.query.isEmpty, state.cachedAt == nil else { return }
        let firstPage = state.transactions.firstPage
        let cursor = state.transactions.pages.count <= 1 ? state.nextCursor : nil
        cache.saveHome(
            HomeSnapshot(summary: summary, cards: state.cards, transactions: firstPage, nextCursor: cursor),
            userID: session.user.id, at: clock.now()
        )
    }
}
