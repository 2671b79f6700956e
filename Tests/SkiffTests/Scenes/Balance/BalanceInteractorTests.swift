import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("BalanceInteractor", .timeLimit(.minutes(3)))
struct BalanceInteractorTests {
    let presenter = BalancePresentationLogicSpy()
    let account = AccountWorkerDouble.succeeding
    let tasks = TaskTracker()

    func makeSUT() -> BalanceInteractor {
        BalanceInteractor(presenter: presenter, account: account, tasks: tasks)
    }

    /// The state presented last.
    var shown: Balance.State? { presenter.presentUpdateCalls.last?.state }

    /// What the header told Home, in words a test compares: `summary 123456 3`, `loading true`, `loading false unreachable`.
    static func told(_ route: BalanceRoute) -> String {
        switch route {
        case .summary(let summary): "summary \(summary.balance.amountMinor) \(summary.unreadNotifications)"
        case .loading(let isRunning, let error?): "loading \(isRunning) \(error)"
        case .loading(let isRunning, nil): "loading \(isRunning)"
        }
    }

    /// The interactor, with everything it tells Home kept in `routes`.
    func makeSUT(routes: Recorder<String>) -> BalanceInteractor {
        let sut = makeSUT()
        sut.route = { routes.record(Self.told($0)) }
        return sut
    }

    @Test("load fetches the summary, presents it and tells Home; Home's spinner follows the load")
    func load() async {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init())
        #expect(routes.all == ["loading true"])
        #expect(presenter.calls.isEmpty, "nothing to show until it is known")
        await tasks.settle()
        #expect(routes.all == ["loading true", "summary 123456 3", "loading false"])
        #expect(shown?.summary == Seeds.summary)
    }

    @Test("the cached summary shows at once; the same summary from the server is not presented or told again")
    func cached() async {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init(cached: Seeds.summary))
        #expect(presenter.presentUpdateCalls.map(\.state.summary) == [Seeds.summary])
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.count == 1)
        #expect(routes.all == ["loading true", "loading false"])
    }

    @Test("a server summary other than the cached one replaces it, presented and told")
    func cachedThenFresh() async {
        var fresh = Seeds.summary
        fresh.balance = Money(amountMinor: 99_00, currency: "USD")
        account.summaryResult.set(.success(fresh))
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init(cached: Seeds.summary))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.map(\.state.summary) == [Seeds.summary, fresh])
        #expect(routes.all == ["loading true", "summary 9900 3", "loading false"])
    }

    @Test("a failed load tells Home its error and keeps the summary shown")
    func loadFails() async {
        account.summaryResult.set(.failure(.unreachable))
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init(cached: Seeds.summary))
        await tasks.settle()
        #expect(routes.all == ["loading true", "loading false unreachable"])
        #expect(shown?.summary == Seeds.summary)
        #expect(presenter.presentUpdateCalls.count == 1)
    }

    @Test("the stream moves the balance and the unread count: presented and told, with no fetch; an unchanged value does nothing")
    func liveBalanceAndUnread() async {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init())
        await tasks.settle()
        let fetched = routes.count
        sut.live(request: .init(update: .event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD")))))
        #expect(shown?.summary?.balance == Money(amountMinor: 124_706, currency: "USD"))
        sut.live(request: .init(update: .event(.unreadChanged(7))))
        #expect(shown?.summary?.unreadNotifications == 7)
        #expect(shown?.summary?.user == Seeds.user)
        #expect(Array(routes.all.dropFirst(fetched)) == ["summary 124706 3", "summary 124706 7"])
        let presented = presenter.presentUpdateCalls.count
        sut.live(request: .init(update: .event(.unreadChanged(7))))
        sut.live(request: .init(update: .event(.balanceChanged(Money(amountMinor: 124_706, currency: "USD")))))
        sut.live(request: .init(update: .event(.cardChanged)))
        #expect(presenter.presentUpdateCalls.count == presented)
        #expect(routes.count == fetched + 2)
    }

    @Test("before the summary is known the stream's balance and count wait for the fetch, which brings them")
    func liveBeforeSummary() {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.live(request: .init(update: .event(.balanceChanged(Money(amountMinor: 1, currency: "USD")))))
        sut.live(request: .init(update: .event(.unreadChanged(1))))
        #expect(presenter.calls.isEmpty)
        #expect(routes.all.isEmpty)
        #expect(sut.state.summary == nil)
    }

    @Test("offline and online are presented once each; back online with nothing failed fetches nothing")
    func offlineOnline() async {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init())
        await tasks.settle()
        let fetched = routes.count
        presenter.reset()
        sut.live(request: .init(update: .online))
        #expect(presenter.calls.isEmpty, "nothing changed, nothing presented")
        sut.live(request: .init(update: .offline))
        #expect(shown?.isOffline == true)
        sut.live(request: .init(update: .offline))
        #expect(presenter.presentUpdateCalls.count == 1)
        sut.live(request: .init(update: .online))
        #expect(shown?.isOffline == false)
        #expect(presenter.presentUpdateCalls.count == 2)
        await tasks.settle()
        #expect(routes.count == fetched, "no fetch")
    }

    /// Issue 42, point 9: the banner of a refresh that failed while offline stayed after the server came back.
    @Test("back online after a failed load: it is fetched again and its error goes, no key pressed")
    func onlineRetries() async {
        account.summaryResult.set(.failure(.unreachable))
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        sut.load(request: .init())
        sut.live(request: .init(update: .offline))
        await tasks.settle()
        #expect(routes.last == "loading false unreachable")
        account.summaryResult.set(.success(Seeds.summary))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(Array(routes.all.suffix(3)) == ["loading true", "summary 123456 3", "loading false"])
        #expect(shown?.summary == Seeds.summary)
        #expect(shown?.isOffline == false)
        let told = routes.count
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(routes.count == told, "once it has answered, online again fetches nothing")
    }

    @Test("refresh fetches again; stop drops the load in flight, tells Home it ended, and its late answer is not shown")
    func refreshAndStop() async {
        let routes = Recorder<String>()
        let sut = makeSUT(routes: routes)
        let gate = Gate()
        account.gate = gate
        sut.refresh(request: .init())
        #expect(sut.fetch.isRunning)
        sut.stop(request: .init())
        #expect(routes.all == ["loading true", "loading false"])
        gate.open()
        await tasks.settle()
        #expect(presenter.calls.isEmpty)
        #expect(routes.count == 2)
        sut.stop(request: .init())
        #expect(routes.count == 2, "nothing running: nothing to tell")
    }
}
