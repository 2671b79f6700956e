import Foundation
import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("CardsPanelInteractor", .timeLimit(.minutes(3)))
struct CardsPanelInteractorTests {
    let presenter = CardsPanelPresentationLogicSpy()
    let worker = CardWorkerDouble.succeeding
    let tasks = TaskTracker()
    /// What the panel told Home, in words a test compares: `cards c_issued,c_ext`, `loading true`, `loading false unreachable`.
    let routes = Recorder<String>()

    func makeSUT() -> CardsPanelInteractor {
        let sut = CardsPanelInteractor(presenter: presenter, worker: worker, tasks: tasks)
        sut.route = { [routes] route in
            switch route {
            case .cards(let cards): routes.record("cards " + cards.map(\.id).joined(separator: ","))
            case .loading(let isRunning, let error?): routes.record("loading \(isRunning) \(error)")
            case .loading(let isRunning, nil): routes.record("loading \(isRunning)")
            }
        }
        return sut
    }

    /// The state presented last.
    var shown: CardsPanel.State? { presenter.presentUpdateCalls.last?.state }

    @Test("load fetches the cards, presents them and tells Home; Home's spinner follows the load")
    func load() async {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(routes.all == ["loading true"])
        #expect(presenter.calls.isEmpty, "nothing to say until the cards are known")
        await tasks.settle()
        #expect(routes.all == ["loading true", "cards c_issued", "loading false"])
        #expect(shown == CardsPanel.State(cards: [Seeds.issuedCard], isKnown: true))
    }

    @Test("no cards at all is known, presented and told, so the panel can say how to add one")
    func noCards() async {
        worker.cardsResult.set(.success([]))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(shown == CardsPanel.State(cards: [], isKnown: true))
        #expect(routes.all == ["loading true", "cards ", "loading false"])
    }

    @Test("the cached cards show at once; the same cards from the server are not presented or told again")
    func cached() async {
        let sut = makeSUT()
        sut.load(request: .init(cached: [Seeds.issuedCard]))
        #expect(presenter.presentUpdateCalls.map(\.state) == [CardsPanel.State(cards: [Seeds.issuedCard], isKnown: true)])
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.count == 1)
        #expect(routes.all == ["loading true", "loading false"])
    }

    @Test("a failed load tells Home its error and keeps the cards shown")
    func loadFails() async {
        worker.cardsResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init(cached: [Seeds.issuedCard]))
        await tasks.settle()
        #expect(routes.all == ["loading true", "loading false unreachable"])
        #expect(presenter.presentUpdateCalls.count == 1)
        #expect(shown?.cards == [Seeds.issuedCard])
    }

    /// Issue 44, point 3: one way in for outside changes.
    @Test("a card changed elsewhere is fetched again quietly: the new cards presented and told, no spinner, no banner")
    func cardChanged() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let told = routes.count
        var frozen = Seeds.externalCard
        frozen.frozen = true
        worker.cardsResult.set(.success([Seeds.issuedCard, frozen]))
        sut.live(request: .init(update: .event(.cardChanged)))
        await tasks.settle()
        #expect(Array(routes.all.dropFirst(told)) == ["cards c_issued,c_ext"])
        #expect(shown?.cards == [Seeds.issuedCard, frozen])
        worker.cardsResult.set(.success([Seeds.issuedCard]))
        sut.live(request: .init(update: .event(.cardChanged)))
        await tasks.settle()
        #expect(Array(routes.all.dropFirst(told)) == ["cards c_issued,c_ext", "cards c_issued"])
        #expect(shown?.cards == [Seeds.issuedCard])
    }

    @Test("a quiet fetch that fails leaves the cards as they were and tells Home nothing")
    func cardChangedFails() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let told = routes.count
        let presented = presenter.presentUpdateCalls.count
        worker.cardsResult.set(.failure(.timeout))
        sut.live(request: .init(update: .event(.cardChanged)))
        await tasks.settle()
        #expect(routes.count == told)
        #expect(presenter.presentUpdateCalls.count == presented)
        #expect(sut.state.cards == [Seeds.issuedCard])
    }

    @Test("other stream updates fetch nothing; back online with nothing failed fetches nothing")
    func otherUpdates() async {
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        let told = routes.count
        worker.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        for update: LiveUpdate in [.offline, .online, .event(.unreadChanged(2)), .event(.balanceChanged(Seeds.summary.balance))] {
            sut.live(request: .init(update: update))
        }
        await tasks.settle()
        #expect(routes.count == told)
        #expect(sut.state.cards == [Seeds.issuedCard])
    }

    @Test("back online after a failed load: the cards are fetched again and the error goes, no key pressed")
    func onlineRetries() async {
        worker.cardsResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        worker.cardsResult.set(.success([Seeds.issuedCard]))
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(routes.all == ["loading true", "loading false unreachable", "loading true", "cards c_issued", "loading false"])
        #expect(shown?.cards == [Seeds.issuedCard])
        sut.live(request: .init(update: .online))
        await tasks.settle()
        #expect(routes.count == 5, "once it has answered, online again fetches nothing")
    }

    @Test("stop drops the load in flight and tells Home it ended; with nothing running it tells nothing")
    func stop() async {
        let sut = makeSUT()
        sut.refresh(request: .init())
        #expect(sut.fetch.isRunning)
        sut.stop(request: .init())
        await tasks.settle()
        #expect(routes.all == ["loading true", "loading false"])
        #expect(presenter.calls.isEmpty, "the dropped answer is not shown")
        sut.stop(request: .init())
        #expect(routes.count == 2)
    }
}
