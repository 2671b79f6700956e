import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

@MainActor
final class CardsPresenterSpy: CardsPresentationLogic {
    var updates: [Cards.State] = []
    var removals: [Card] = []

    func presentUpdate(response: Cards.Update.Response) {
        updates.append(response.state)
    }

    func presentRemove(response: Cards.Remove.Response) {
        removals.append(response.card)
    }
}

@MainActor
@Suite("Cards interactor", .timeLimit(.minutes(1)))
struct CardsInteractorTests {
    let presenter = CardsPresenterSpy()
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
        #expect(presenter.updates.first?.cards == [Seeds.issuedCard])
        #expect(presenter.updates.first?.isLoading == true)
        await tasks.settle()
        #expect(presenter.updates.last?.cards == [Seeds.issuedCard, Seeds.externalCard])
        #expect(presenter.updates.last?.isLoading == false)
    }

    @Test("a load that fails keeps the cards and the error")
    func loadFails() async {
        worker.cardsResult.set(.failure(.unreachable))
        let sut = makeSUT()
        sut.load(request: .init())
        await tasks.settle()
        #expect(presenter.updates.last?.cards == [Seeds.issuedCard])
        #expect(presenter.updates.last?.error == .unreachable)
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

    @Test("f freezes a card, then unfreezes it; each change is shown and reported as it lands")
    func freezeAndUnfreeze() async {
        let sut = makeSUT()
        var routes: [CardsRoute] = []
        sut.route = { routes.append($0) }
        sut.load(request: .init())
        await tasks.settle()
        sut.freeze(request: .init(index: 1))
        #expect(presenter.updates.last?.changing == .freeze(Seeds.externalCard))
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true])
        #expect(presenter.updates.last?.cards[1].frozen == true)
        #expect(presenter.updates.last?.changing == nil)
        #expect(presenter.updates.last?.notice == "Visa •••• 4242 frozen.")
        guard case .changed(let card)? = routes.last, card.frozen else {
            Issue.record("got \(routes)")
            return
        }
        sut.freeze(request: .init(index: 1))
        await tasks.settle()
        #expect(worker.freezes.all.map(\.frozen) == [true, false])
        #expect(worker.freezes.all.map(\.cardID) == ["c_ext", "c_ext"])
        #expect(presenter.updates.last?.cards[1].frozen == false)
        #expect(presenter.updates.last?.notice == "Visa •••• 4242 unfrozen.")
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
        #expect(presenter.removals.isEmpty)
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
        #expect(presenter.updates.last?.cards[1].frozen == false)
        #expect(presenter.updates.last?.error == .unreachable)
        #expect(routes.isEmpty)
    }

    @Test("d asks before removing an added card, and never for the issued card")
    func removeAsksFirst() {
        let sut = makeSUT(cards: [Seeds.issuedCard, frozenExternal])
        sut.remove(request: .init(index: 0))
        #expect(presenter.removals.isEmpty)
        sut.remove(request: .init(index: 1))
        #expect(presenter.removals == [frozenExternal])
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
        #expect(presenter.updates.last?.cards == [Seeds.issuedCard])
        #expect(presenter.updates.last?.notice == "Visa •••• 4242 removed.")
        guard case .removed(Seeds.externalCard)? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }

    @Test("a change still reaches the server and is reported after the screen is gone")
    func changeOutlivesScreen() async {
        worker.gate = Gate()
        var sut: CardsInteractor? = makeSUT(cards: [Seeds.issuedCard, Seeds.externalCard])
        var routes: [CardsRoute] = []
        sut?.route = { routes.append($0) }
        sut?.freeze(request: .init(index: 1))
        sut = nil
        worker.gate?.open()
        await tasks.settle()
        guard case .changed(let card)? = routes.last, card.frozen else {
            Issue.record("got \(routes)")
            return
        }
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
        #expect(presenter.updates.last?.isLoading == false)
        sut.back(request: .init())
        guard case .back? = routes.last else {
            Issue.record("got \(routes)")
            return
        }
    }
}
