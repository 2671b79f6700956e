import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("Card detail interactor")
struct CardDetailInteractorTests {
    @Test("load presents the card it was given")
    func load() {
        let presenter = CardDetailPresentationLogicSpy()
        let sut = CardDetailInteractor(presenter: presenter, card: Seeds.externalCard)
        sut.load(request: .init())
        #expect(presenter.presentLoadCalls.map(\.card) == [Seeds.externalCard])
    }

    @Test("back routes back")
    func back() {
        let sut = CardDetailInteractor(presenter: CardDetailPresentationLogicSpy(), card: Seeds.externalCard)
        var routes: [CardDetailRoute] = []
        sut.route = { routes.append($0) }
        sut.back(request: .init())
        #expect(routes.count == 1)
        if case .back? = routes.first {} else { Issue.record("expected .back, got \(routes)") }
    }
}
