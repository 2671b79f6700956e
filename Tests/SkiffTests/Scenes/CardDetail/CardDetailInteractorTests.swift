import SkiffCore
import Testing
@testable import Skiff

@MainActor
final class CardDetailPresenterSpy: CardDetailPresentationLogic {
    var loads: [CardDetail.Load.Response] = []

    func presentLoad(response: CardDetail.Load.Response) {
        loads.append(response)
    }
}

@MainActor
@Suite("Card detail interactor")
struct CardDetailInteractorTests {
    @Test("load presents the card it was given")
    func load() {
        let presenter = CardDetailPresenterSpy()
        let sut = CardDetailInteractor(presenter: presenter, card: Seeds.externalCard)
        sut.load(request: .init())
        #expect(presenter.loads.map(\.card) == [Seeds.externalCard])
    }

    @Test("back routes back")
    func back() {
        let sut = CardDetailInteractor(presenter: CardDetailPresenterSpy(), card: Seeds.externalCard)
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.back(request: .init())
        #expect(routes.count == 1)
        if case .back? = routes.first {} else { Issue.record("expected .back, got \(routes)") }
    }
}
