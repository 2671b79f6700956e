import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("HomeInteractor", .timeLimit(.minutes(3)))
struct HomeInteractorTests {
    let presenter = HomePresentationLogicSpy()
    let balance = BalanceBusinessLogicSpy()
    let cards = CardsPanelBusinessLogicSpy()
    let spending = SpendingBusinessLogicSpy()
    let transactions = TransactionsBusinessLogicSpy()
    let auth = AuthWorkerDouble.succeeding
    let sessions = SessionStoreDouble(Seeds.session)
    let cache = CacheStoreDouble()
    let tasks = TaskTracker()

    func makeSUT() -> HomeInteractor {
        HomeInteractor(
            presenter: presenter,
            parts: Home.Parts(balance: balance, cards: cards, spending: spending, transactions: transactions),
            auth: auth, sessions: sessions, cache: cache, session: Seeds.session, clock: .immediate(), tasks: tasks
        )
    }

    /// The state presented last.
    var shown: Home.State? { presenter.presentUpdateCalls.last?.state }

    /// An hour before `Seeds.now`.
    static let savedAt = Seeds.now.addingTimeInterval(-3600)
    static let cachedPage = Transactions.CachedPage(items: [Seeds.transaction(1)], nextCursor: "c1")

    /// Keeps a Home from an hour ago: the summary, the issued card and one transaction.
    func saveCache() {
        cache.saveHome(
            HomeSnapshot(summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: Self.cachedPage.items, nextCursor: "c1"),
            userID: Seeds.user.id, at: Self.savedAt
        )
    }

    /// Each part that loads tells Home its load started.
    func partsStarted(_ sut: HomeInteractor) {
        sut.partTold(request: .init(.balance(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.transactions(.loading(isRunning: true, error: nil))))
    }

    // MARK: Load, cache

    @Test("load with nothing kept asks each part to load with nothing cached, and presents Home once")
    func load() {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(balance.loadCalls.map(\.cached) == [nil])
        #expect(cards.loadCalls.map(\.cached) == [nil])
        #expect(transactions.loadCalls.map(\.cached) == [nil])
        #expect(spending.loadCalls.count == 1)
        #expect(presenter.presentUpdateCalls.count == 1)
        #expect(shown == Home.State())
    }

    @Test("the cached Home hands each part its piece at once, marked with when it was saved")
    func cachedFirst() {
        saveCache()
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(balance.loadCalls.map(\.cached) == [Seeds.summary])
        #expect(cards.loadCalls.map(\.cached) == [[Seeds.issuedCard]])
        #expect(transactions.loadCalls.map(\.cached) == [Self.cachedPage])
        #expect(spending.loadCalls.count == 1)
        #expect(shown?.cachedAt == Self.savedAt)
        #expect(shown?.summary == Seeds.summary)
        #expect(shown?.cards == [Seeds.issuedCard])
        #expect(shown?.firstPage == Self.cachedPage)
    }

    @Test("what shows stops being the cache's, and is saved, once every part has answered fresh")
    func savedOnceEveryPartAnswered() {
        saveCache()
        let sut = makeSUT()
        sut.load(request: .init())
        partsStarted(sut)
        #expect(shown?.loading == [.balance, .cards, .transactions])
        var fresh = Seeds.summary
        fresh.balance = Money(amountMinor: 99_00, currency: "USD")
        let page = Transactions.CachedPage(items: [Seeds.transaction(2), Seeds.transaction(3)], nextCursor: nil)
        sut.partTold(request: .init(.balance(.summary(fresh))))
        sut.partTold(request: .init(.balance(.loading(isRunning: false, error: nil))))
        sut.partTold(request: .init(.cards(.cards([Seeds.issuedCard, Seeds.externalCard]))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: nil))))
        sut.partTold(request: .init(.transactions(.firstPage(page))))
        #expect(cache.loadHome(userID: Seeds.user.id)?.savedAt == Self.savedAt, "not yet: the list is still loading")
        #expect(shown?.cachedAt == Self.savedAt)
        sut.partTold(request: .init(.transactions(.loading(isRunning: false, error: nil))))
        #expect(shown?.cachedAt == nil)
        #expect(shown?.loading == [])
        let saved = cache.loadHome(userID: Seeds.user.id)
        #expect(saved?.savedAt == Seeds.now)
        #expect(saved?.snapshot == HomeSnapshot(
            summary: fresh, cards: [Seeds.issuedCard, Seeds.externalCard], transactions: page.items, nextCursor: nil
        ))
    }

    @Test("while a part has not answered, what shows stays the cache's even with nothing loading")
    func cacheKeptUntilEveryPartAnswered() {
        saveCache()
        let sut = makeSUT()
        sut.load(request: .init())
        sut.partTold(request: .init(.balance(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.balance(.loading(isRunning: false, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: nil))))
        #expect(shown?.loading == [])
        #expect(shown?.cachedAt == Self.savedAt, "the list has not answered")
        #expect(cache.loadHome(userID: Seeds.user.id)?.savedAt == Self.savedAt)
    }

    @Test("offline with a cache: the cached data stays, marked with when it was saved, and the cache is not written over")
    func offline() {
        saveCache()
        let sut = makeSUT()
        sut.load(request: .init())
        partsStarted(sut)
        sut.partTold(request: .init(.balance(.loading(isRunning: false, error: .unreachable))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: .unreachable))))
        sut.partTold(request: .init(.transactions(.loading(isRunning: false, error: nil))))
        #expect(shown?.error == .unreachable)
        #expect(shown?.cachedAt == Self.savedAt)
        #expect(shown?.summary == Seeds.summary)
        #expect(shown?.loading == [])
        #expect(cache.loadHome(userID: Seeds.user.id)?.savedAt == Self.savedAt)

        // Back online, the parts that failed load again: their errors go as they start, the cache mark once they answer.
        sut.partTold(request: .init(.balance(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: true, error: nil))))
        #expect(shown?.error == nil)
        #expect(shown?.cachedAt == Self.savedAt)
        sut.partTold(request: .init(.balance(.loading(isRunning: false, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: nil))))
        #expect(shown?.cachedAt == nil)
        #expect(cache.loadHome(userID: Seeds.user.id)?.savedAt == Seeds.now)
    }

    @Test("the first part's error is the one told, in the order the parts show")
    func errorOrder() {
        let sut = makeSUT()
        sut.load(request: .init())
        sut.partTold(request: .init(.transactions(.loading(isRunning: false, error: .unreachable))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: .timeout))))
        #expect(shown?.error == .timeout)
        sut.partTold(request: .init(.balance(.loading(isRunning: false, error: .connectionLost))))
        #expect(shown?.error == .connectionLost)
    }

    @Test("with nothing kept, Home is saved once the summary and the first page are known, and again as they change")
    func savedWithoutCache() {
        let sut = makeSUT()
        sut.load(request: .init())
        sut.partTold(request: .init(.balance(.summary(Seeds.summary))))
        sut.partTold(request: .init(.cards(.cards([Seeds.issuedCard]))))
        #expect(cache.loadHome(userID: Seeds.user.id) == nil, "no list yet")
        sut.partTold(request: .init(.transactions(.firstPage(Self.cachedPage))))
        #expect(cache.loadHome(userID: Seeds.user.id)?.snapshot == HomeSnapshot(
            summary: Seeds.summary, cards: [Seeds.issuedCard], transactions: Self.cachedPage.items, nextCursor: "c1"
        ))
        sut.partTold(request: .init(.cards(.cards([]))))
        #expect(cache.loadHome(userID: Seeds.user.id)?.snapshot.cards == [])
        #expect(shown?.cards == [], "the cards are presented: whether v activates follows them")
    }

    // MARK: Refresh, back

    @Test("r asks every part again; Esc stops what is still loading")
    func refreshAndBack() {
        let sut = makeSUT()
        sut.refresh(request: .init())
        #expect(balance.refreshCalls.count == 1)
        #expect(cards.refreshCalls.count == 1)
        #expect(transactions.refreshCalls.count == 1)
        #expect(spending.loadCalls.count == 1)
        sut.back(request: .init())
        #expect(balance.stopCalls.count == 1)
        #expect(cards.stopCalls.count == 1)
        #expect(transactions.backCalls.count == 1)
        #expect(spending.stopCalls.isEmpty, "spending keeps loading: Esc leaves nothing")
    }

    // MARK: Navigate

    @Test("send and top up need the balance Home was told: before it nothing opens; top up takes the cards too")
    func sendAndTopUp() {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.navigate(request: .init(destination: .sendMoney))
        sut.navigate(request: .init(destination: .topUp))
        #expect(routes.isEmpty)
        sut.partTold(request: .init(.balance(.summary(Seeds.summary))))
        sut.partTold(request: .init(.cards(.cards([Seeds.issuedCard, Seeds.externalCard]))))
        sut.navigate(request: .init(destination: .sendMoney))
        sut.navigate(request: .init(destination: .topUp))
        guard routes.count == 2, case .sendMoney(Seeds.summary.balance) = routes[0],
              case .topUp([Seeds.issuedCard, Seeds.externalCard], Seeds.summary.balance) = routes[1]
        else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("c opens Cards with the cards Home has; a and n open Add card and the inbox")
    func openCardsAddCardInbox() {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.partTold(request: .init(.cards(.cards([Seeds.issuedCard]))))
        sut.navigate(request: .init(destination: .cards))
        sut.navigate(request: .init(destination: .addCard))
        sut.navigate(request: .init(destination: .notifications))
        guard routes.count == 3, case .cards([Seeds.issuedCard]) = routes[0], case .addCard = routes[1],
              case .notifications = routes[2]
        else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("v opens activation for the inactive issued card")
    func activate() {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.partTold(request: .init(.cards(.cards([Seeds.externalCard, Seeds.issuedCard]))))
        sut.navigate(request: .init(destination: .activateCard))
        guard routes.count == 1, case .activateCard(Seeds.issuedCard) = routes[0] else {
            Issue.record("got \(routes)")
            return
        }
        #expect(shown?.notice == nil)
    }

    @Test("v opens nothing for a frozen, an active or no Skiff card, and says why")
    func activateRefused() {
        var frozen = Seeds.issuedCard
        frozen.frozen = true
        var active = Seeds.issuedCard
        active.status = .active
        let expected: [([Card], Home.State.Notice)] = [
            ([frozen], .unfreezeCardFirst),
            ([active, Seeds.externalCard], .cardAlreadyActive),
            ([Seeds.externalCard], .noCardToActivate),
            ([], .noCardToActivate),
        ]
        for (held, notice) in expected {
            var routes: [HomeRoute] = []
            let sut = makeSUT()
            sut.route = { routes.append($0) }
            sut.partTold(request: .init(.cards(.cards(held))))
            sut.navigate(request: .init(destination: .activateCard))
            #expect(routes.isEmpty, "\(held.map(\.id))")
            #expect(shown?.notice == notice, "\(held.map(\.id))")
        }
    }

    // MARK: Log out

    @Test("log out stops every part, says it is logging out first, then revokes, forgets the session and the cache, and routes to Login")
    func logout() async {
        let gate = Gate()
        auth.gate = gate
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.logout(request: .init())
        #expect(balance.stopCalls.count == 1)
        #expect(cards.stopCalls.count == 1)
        #expect(transactions.stopCalls.count == 1)
        #expect(spending.stopCalls.count == 1)
        #expect(shown?.isLoggingOut == true)
        #expect(routes.map { "\($0)" } == ["loggingOut"], "only .loggingOut before the server answers")
        // Meanwhile r, Esc and a second log out reach no part and start nothing.
        sut.refresh(request: .init())
        sut.back(request: .init())
        sut.logout(request: .init())
        #expect(balance.refreshCalls.isEmpty && cards.refreshCalls.isEmpty && transactions.refreshCalls.isEmpty)
        #expect(balance.stopCalls.count == 1 && transactions.backCalls.isEmpty)
        gate.open()
        await tasks.settle()
        #expect(auth.logouts.count == 1)
        #expect(sessions.load() == nil)
        #expect(cache.clears == 1)
        #expect(routes.map { "\($0)" } == ["loggingOut", "loggedOut"])
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
        #expect(cache.clears == 1)
        #expect(routes.map { "\($0)" } == ["loggingOut", "loggedOut"])
    }

    // MARK: Notices

    /// Issue 44, point 3: one way in for outside changes.
    @Test("a flow that added or activated a card is told at once; the card itself comes by the stream, not by the flow")
    func flowFinished() {
        let sut = makeSUT()
        sut.load(request: .init())
        sut.flowFinished(request: .init(.cardAdded(Seeds.externalCard)))
        #expect(shown?.notice == .cardAdded(Seeds.externalCard))
        #expect(shown?.cards == [], "the flow's card is words only")
        #expect(cards.refreshCalls.isEmpty && balance.refreshCalls.isEmpty && transactions.refreshCalls.isEmpty, "no reload")
        sut.flowFinished(request: .init(.cardActivated(Seeds.issuedCard)))
        #expect(shown?.notice == .cardActivated(Seeds.issuedCard))
    }

    @Test("a notice is shown until the next key, which dismisses it once; without one a key presents nothing")
    func dismissNotice() {
        let sut = makeSUT()
        sut.load(request: .init())
        presenter.reset()
        sut.dismissNotice(request: .init())
        #expect(presenter.calls.isEmpty)
        sut.flowFinished(request: .init(.cardActivated(Seeds.issuedCard)))
        presenter.reset()
        sut.dismissNotice(request: .init())
        #expect(presenter.calls == ["presentUpdate"])
        #expect(shown?.notice == nil)
        sut.dismissNotice(request: .init())
        #expect(presenter.calls == ["presentUpdate"])
    }

    // MARK: Live

    @Test("every stream update reaches every part, each to take what is its own; only money in is told as a notice")
    func liveForwarding() {
        let sut = makeSUT()
        sut.load(request: .init())
        let received = Transaction(
            id: "t_live", amount: Money(amountMinor: 1_250, currency: "USD"), merchant: "Jordan R.", category: "Transfers",
            createdAt: Seeds.now
        )
        let updates: [LiveUpdate] = [
            .offline, .online, .event(.cardChanged), .event(.unreadChanged(4)),
            .event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD"))), .event(.moneySent(Seeds.transaction(2))),
        ]
        presenter.reset()
        for update in updates { sut.live(request: .init(update: update)) }
        #expect(balance.liveCalls.map(\.update) == updates)
        #expect(cards.liveCalls.map(\.update) == updates)
        #expect(transactions.liveCalls.map(\.update) == updates)
        #expect(spending.liveCalls.map(\.update) == updates)
        #expect(presenter.calls.isEmpty, "Home itself shows none of it")

        let moneyIn = LiveUpdate.event(.moneyReceived(received, from: "Jordan R.", isTopUp: false))
        sut.live(request: .init(update: moneyIn))
        #expect(transactions.liveCalls.last?.update == moneyIn)
        #expect(balance.liveCalls.last?.update == moneyIn)
        #expect(shown?.notice == .moneyReceived(Money(amountMinor: 1_250, currency: "USD"), from: "Jordan R.", isTopUp: false))
        // The notice stays through what follows it (the balance moving), until a key.
        sut.live(request: .init(update: .event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD")))))
        #expect(shown?.notice != nil)
        sut.dismissNotice(request: .init())
        #expect(shown?.notice == nil)
    }

    // MARK: What the parts tell

    @Test("a category picked in Spending lists its transactions; Enter on a transaction routes to it")
    func partRoutes() {
        var routes: [HomeRoute] = []
        let sut = makeSUT()
        sut.route = { routes.append($0) }
        sut.partTold(request: .init(.spending(.category(name: "Groceries", month: "2026-11"))))
        #expect(transactions.showCategoryCalls.map(\.category) == [.init(name: "Groceries", month: "2026-11")])
        #expect(routes.isEmpty)
        sut.partTold(request: .init(.transactions(.transaction(Seeds.transaction(3)))))
        guard routes.count == 1, case .transaction(let transaction) = routes[0] else {
            Issue.record("got \(routes)")
            return
        }
        #expect(transaction == Seeds.transaction(3))
    }

    @Test("Home is busy while any part loads, and each part's error goes when it loads again")
    func loadingFollowsParts() {
        let sut = makeSUT()
        sut.load(request: .init())
        sut.partTold(request: .init(.cards(.loading(isRunning: true, error: nil))))
        #expect(shown?.loading == [.cards])
        sut.partTold(request: .init(.transactions(.loading(isRunning: true, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: false, error: .timeout))))
        #expect(shown?.loading == [.transactions])
        #expect(shown?.errors == [.cards: .timeout])
        sut.partTold(request: .init(.transactions(.loading(isRunning: false, error: nil))))
        sut.partTold(request: .init(.cards(.loading(isRunning: true, error: nil))))
        #expect(shown?.errors == [:])
        #expect(shown?.loading == [.cards])
    }
}
