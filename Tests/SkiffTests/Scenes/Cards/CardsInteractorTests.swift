import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Cards interactor", .timeLimit(.minutes(3)))
struct CardsInteractorTests {
    let presenter = CardsPresentationLogicSpy()
    let worker = CardWorkerDouble.succeeding
    let tasks = TaskTracker()

    init() {
        worker.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
    }

    func makeSUT(cards: [Card] = [Seeds.issuedCard]) -> CardsInteractor {
        CardsInteractor(presenter: presenter, worker: worker, cards: cards, tasks: tasks)
    }

    var frozenExternal: Card {
        var card = Seeds.externalCard
        card.frozen = true
        return card
    }

    @Test("load shows the cards it was given at once, then the server's")
    func load() async {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentUpdateCalls.first?.state.cards == [Seeds.issuedCard])
        #expect(presenter.presentUpdateCalls.first?.state.isLoading == true)
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, Seeds.externalCard])
        #expect(presenter.presentUpdateCalls.last?.state.isLoading == false)
    }

    @Test("a load that fails keeps the cards and the error")
    func loadFails() async {
        worker.cardsResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard])
        #expect(presenter.presentUpdateCalls.last?.state.error == .unreachable)
    }

    @Test("Enter routes to the selected card's detail")
    func showDetail() async {
        let sut = makeSUT()
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.showDetail(request: .init(index: 1))
        sut.showDetail(request: .init(index: 5))
        #expect(routes.count == 1)
        guard case .openCard(Seeds.externalCard)? = routes.first else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("f freezes a card, then unfreezes it; each change is shown as it lands")
    func freezeAndUnfreeze() async {
        let sut = makeSUT()
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.freeze(request: .init(index: 1))
        #expect(presenter.presentUpdateCalls.last?.state.changing == .freeze(Seeds.externalCard))
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true])
        #expect(presenter.presentUpdateCalls.last?.state.cards[1].frozen == true)
        #expect(presenter.presentUpdateCalls.last?.state.changing == nil)
        #expect(presenter.presentUpdateCalls.last?.state.notice == .changed(frozenExternal))
        #expect(routes.isEmpty, "nothing to tell: Home hears of it by the live stream")
        sut.freeze(request: .init(index: 1))
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true, false])
        #expect(worker.freezes.all.map(\.cardID) == ["c_ext", "c_ext"])
        #expect(presenter.presentUpdateCalls.last?.state.cards[1].frozen == false)
        #expect(presenter.presentUpdateCalls.last?.state.notice == .changed(Seeds.externalCard))
    }

    @Test("a second f while a change is on its way is ignored")
    func oneChangeAtATime() async {
        worker.gate = Gate()
        let sut = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        sut.freeze(request: .init(index: 1))
        sut.freeze(request: .init(index: 0))
        sut.remove(request: .init(index: 1))
        await tasks.settle { worker.gate?.held ?? 0 }
        #expect(worker.freezes.count == 1)
        #expect(presenter.presentRemoveCalls.isEmpty)
        worker.gate?.open()
        await tasks.settle()
    }

    @Test("a refused freeze keeps the card as it was and says why, reporting nothing")
    func freezeFails() async {
        worker.changeFailure.set(.failure(.unreachable))
        let sut = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.freeze(request: .init(index: 1))
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.cards[1].frozen == false)
        #expect(presenter.presentUpdateCalls.last?.state.error == .unreachable)
        #expect(routes.isEmpty)
    }

    @Test("d asks before removing an added card, and never for the issued card")
    func removeAsksFirst() {
        let sut = makeSUT(cards: [Seeds.issuedCard, frozenExternal])
        sut.remove(request: .init(index: 0))
        #expect(presenter.presentRemoveCalls.isEmpty)
        sut.remove(request: .init(index: 1))
        #expect(presenter.presentRemoveCalls.map(\.card) == [frozenExternal])
        #expect(worker.removals.count == 0)
    }

    @Test("confirming removes the card on the server, shows it gone and reports it")
    func confirmRemove() async {
        let sut = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.confirmRemove(request: .init(cardID: Seeds.issuedCard.id))
        #expect(worker.removals.count == 0)
        sut.confirmRemove(request: .init(cardID: Seeds.externalCard.id))
        await tasks.settle()
        #expect(worker.removals.all == ["c_ext"])
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard])
        #expect(presenter.presentUpdateCalls.last?.state.notice == .removed(Seeds.externalCard))
        #expect(routes.isEmpty, "nothing to tell: Home hears of it by the live stream")
    }

    @Test("a change asked for is sent even when the screen goes at once")
    func changeOutlivesScreen() async {
        worker.gate = Gate()
        var sut: CardsInteractor? = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        sut?.freeze(request: .init(index: 1))
        sut = nil
        worker.gate?.open()
        await tasks.settle()
        #expect(worker.freezes.all.map(\.cardID) == ["c_ext"])
    }

    @Test("Esc stops a load that is still running; with nothing running it routes back")
    func back() async {
        worker.gate = Gate()
        let sut = makeSUT()
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        sut.back(request: .init())
        await tasks.settle()
        #expect(routes.isEmpty)
        #expect(presenter.presentUpdateCalls.last?.state.isLoading == false)
        sut.back(request: .init())
        guard case .back? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("a routes to Add card, whatever is selected, also with no cards")
    func add() {
        let sut = makeSUT(cards: [])
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.add(request: .init())
        guard case .addCard? = routes.last, routes.count == 1 else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("v routes the selected card to Activate card only while it can be activated: issued, inactive, not frozen")
    func activate() {
        var frozenIssued = Seeds.issuedCard
        frozenIssued.frozen = true
        var activeIssued = Seeds.issuedCard
        activeIssued.status = .active
        for (card, routed) in [(Seeds.issuedCard, true), (frozenIssued, false), (activeIssued, false), (Seeds.externalCard, false)] {
            let sut = makeSUT(cards: [card])
            var routes: [CardsRoute] = []
            sut.route = { routes.append($0) }
            sut.activate(request: .init(index: 0))
            sut.activate(request: .init(index: 3))
            if routed {
                guard case .activateCard(card)? = routes.last, routes.count == 1 else {
                    Issue.record("\(card): got \(routes)")
                    continue
                }
            } else {
                #expect(routes.isEmpty, "\(card)")
            }
        }
    }

    @Test("v while a change is on its way is ignored")
    func activateWhileChanging() async {
        worker.gate = Gate()
        let sut = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.freeze(request: .init(index: 1))
        sut.activate(request: .init(index: 0))
        #expect(routes.isEmpty)
        worker.gate?.open()
        await tasks.settle()
    }

    @Test("what another screen changed shows at once, with a note: added, activated, frozen, removed")
    func changedElsewhere() {
        let sut = makeSUT(cards: [Seeds.issuedCard])
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.changedElsewhere(request: .init(change: .added(Seeds.externalCard)))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [Seeds.issuedCard, Seeds.externalCard])
        #expect(presenter.presentUpdateCalls.last?.state.notice == .added(Seeds.externalCard))
        var active = Seeds.issuedCard
        active.status = .active
        sut.changedElsewhere(request: .init(change: .activated(active)))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [active, Seeds.externalCard])
        #expect(presenter.presentUpdateCalls.last?.state.notice == .activated(active))
        sut.changedElsewhere(request: .init(change: .changed(frozenExternal)))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [active, frozenExternal])
        sut.changedElsewhere(request: .init(change: .removed(frozenExternal)))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [active])
        #expect(presenter.presentUpdateCalls.last?.state.notice == .removed(frozenExternal))
        sut.changedElsewhere(request: .init(change: .added(Seeds.externalCard)))
        sut.changedElsewhere(request: .init(change: .added(Seeds.externalCard)))
        #expect(presenter.presentUpdateCalls.last?.state.cards == [active, Seeds.externalCard], "an added card is listed once")
        #expect(routes.isEmpty, "nothing to report: the screen that made the change reported it")
    }
}
