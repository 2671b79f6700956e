import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Card detail interactor", .timeLimit(.minutes(3)))
struct CardDetailInteractorTests {
    let presenter = CardDetailPresentationLogicSpy()
    let worker = CardWorkerDouble.succeeding
    let tasks = TaskTracker()

    init() {
        worker.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
    }

    func makeSUT(_ card: Card = Seeds.externalCard) -> CardDetailInteractor {
        CardDetailInteractor(presenter: presenter, worker: worker, card: card, tasks: tasks)
    }

    var frozenExternal: Card {
        var card = Seeds.externalCard
        card.frozen = true
        return card
    }

    @Test("load presents the card it was given, and what can be done with it")
    func load() {
        let sut = makeSUT()
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.map(\.card) == [Seeds.externalCard])
        #expect(presenter.presentUpdateCalls.last?.state == CardDetail.State(card: Seeds.externalCard))
    }

    @Test("f freezes the card, then unfreezes it: each change shown and reported as it lands")
    func freezeAndUnfreeze() async {
        let sut = makeSUT()
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        sut.freeze(request: .init())
        #expect(presenter.presentUpdateCalls.last?.state.changing == .freeze(Seeds.externalCard))
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true])
        #expect(presenter.presentLoadCalls.last?.card == frozenExternal)
        #expect(presenter.presentUpdateCalls.last?.state.changing == nil)
        #expect(presenter.presentUpdateCalls.last?.state.notice == .changed(frozenExternal))
        guard case .changed(frozenExternal)? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
        sut.freeze(request: .init())
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true, false])
        #expect(presenter.presentLoadCalls.last?.card == Seeds.externalCard)
        guard case .changed(Seeds.externalCard)? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("a second f while a change is on its way is ignored")
    func oneChangeAtATime() async {
        worker.gate = Gate()
        let sut = makeSUT()
        sut.freeze(request: .init())
        sut.freeze(request: .init())
        sut.remove(request: .init())
        await tasks.settle { worker.gate?.held ?? 0 }
        #expect(worker.freezes.count == 1)
        #expect(presenter.presentRemoveCalls.isEmpty)
        worker.gate?.open()
        await tasks.settle()
    }

    @Test("a refused freeze keeps the card as it was and says why, reporting nothing")
    func freezeFails() async {
        worker.changeFailure.set(.failure(.unreachable))
        let sut = makeSUT()
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.freeze(request: .init())
        await tasks.settle()
        #expect(presenter.presentUpdateCalls.last?.state.card == Seeds.externalCard)
        #expect(presenter.presentUpdateCalls.last?.state.error == .unreachable)
        #expect(routes.isEmpty)
    }

    @Test("d asks before removing an added card, and never for the issued card")
    func removeAsksFirst() {
        makeSUT(Seeds.issuedCard).remove(request: .init())
        #expect(presenter.presentRemoveCalls.isEmpty)
        makeSUT().remove(request: .init())
        #expect(presenter.presentRemoveCalls.map(\.card) == [Seeds.externalCard])
        #expect(worker.removals.count == 0)
    }

    @Test("confirming removes the card on the server and reports it; a confirmation naming another card is ignored")
    func confirmRemove() async {
        let sut = makeSUT()
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.confirmRemove(request: .init(cardID: Seeds.issuedCard.id))
        #expect(worker.removals.count == 0)
        sut.confirmRemove(request: .init(cardID: Seeds.externalCard.id))
        await tasks.settle()
        #expect(worker.removals.all == ["c_ext"])
        guard case .removed(Seeds.externalCard)? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("the issued card is never removed, even if asked")
    func issuedNotRemoved() async {
        let sut = makeSUT(Seeds.issuedCard)
        sut.confirmRemove(request: .init(cardID: Seeds.issuedCard.id))
        await tasks.settle()
        #expect(worker.removals.count == 0)
    }

    @Test("a change still reaches the server and is reported after the screen is gone")
    func changeOutlivesScreen() async {
        worker.gate = Gate()
        var sut: CardDetailInteractor? = makeSUT()
        var routes: [CardDetailRoute] = []
        sut?.route = { routes.append($0) }
        sut?.freeze(request: .init())
        sut = nil
        worker.gate?.open()
        await tasks.settle()
        guard case .changed(frozenExternal)? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("back routes back")
    func back() {
        let sut = makeSUT()
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.back(request: .init())
        #expect(routes.count == 1)
        if case .back? = routes.first {} else { Issue.record("expected .back, got \(routes)") }
    }
}
