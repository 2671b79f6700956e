import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Card detail screen", .timeLimit(.minutes(3)))
struct CardDetailScreenTests {
    /// The scene wired as `SceneFactory.assemble` wires it, alone on a headless 100×30 terminal.
    private func start(_ card: Card) throws -> (Application, HeadlessTerminal, CardDetailInteractor) {
        let terminal = HeadlessTerminal(width: 100, height: 30, capabilities: .init(hasColor: false, isUnicode: true))
        let presenter = CardDetailPresenter(formatting: Seeds.utc)
        let interactor = CardDetailInteractor(presenter: presenter, card: card)
        let controller = CardDetailViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: controller))
        try app.start()
        return (app, terminal, interactor)
    }

    @Test("a frozen added card in full")
    func frozenCard() throws {
        var card = Seeds.externalCard
        card.frozen = true
        let (_, terminal, _) = try start(card)
        assertSnapshot(of: terminal, as: .screen, named: "card-detail")
    }

    @Test("Esc routes back")
    func escape() async throws {
        let (app, _, interactor) = try start(Seeds.externalCard)
        var routes: [CardDetailRoute] = []
        interactor.route = { routes.append($0) }
        app.send(.escape)
        await app.settle()
        #expect(routes.count == 1)
    }
}
