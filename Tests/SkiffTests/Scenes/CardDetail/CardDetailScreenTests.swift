import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Card detail screen", .timeLimit(.minutes(3)))
struct CardDetailScreenTests {
    /// The scene wired as its `SceneFactory` method wires it, alone on a headless 100×30 terminal.
    private func start(_ card: Card) throws -> (Application, HeadlessTerminal, CardDetailInteractor) {
        let terminal = HeadlessTerminal(width: 100, height: 30, capabilities: .init(hasColor: false, isUnicode: true))
        let presenter = CardDetailPresenter(formatting: Seeds.utc)
        let controller = CardDetailViewController()
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: controller))
        let interactor = CardDetailInteractor(presenter: presenter, worker: CardWorkerDouble.succeeding, card: card, tasks: app.tasks)
        controller.interactor = interactor
        presenter.viewController = controller
        try app.start()
        return (app, terminal, interactor)
    }

    /// The whole wallet on Home with the issued and an added card, then Cards, then the detail of the card at `row`.
    private func openDetail(row: Int) async throws -> ScreenHarness {
        let harness = ScreenHarness(session: Seeds.session) {
            $0.account.pages.set(.success(["": TransactionPage(items: [Seeds.transaction(1)], nextCursor: nil)]))
            $0.cards.cardsResult.set(.success([Seeds.issuedCard, Seeds.externalCard]))
        }
        try await harness.start()
        await harness.send(.character("c"))
        for _ in 0..<row { await harness.send(.down) }
        await harness.send(.enter)
        #expect(harness.top is CardDetailViewController)
        return harness
    }

    @Test("a frozen added card in full, with the keys to unfreeze and remove it")
    func frozenCard() throws {
        var card = Seeds.externalCard
        card.frozen = true
        let (_, terminal, _) = try start(card)
        assertSnapshot(of: terminal, as: .screen, named: "card-detail")
        #expect(terminal.lines.last?.hasPrefix(" f unfreeze card  d remove card  ? help") == true)
    }

    @Test("the Skiff card's detail offers f but not d")
    func issuedCardKeys() throws {
        let (_, terminal, _) = try start(Seeds.issuedCard)
        #expect(terminal.lines.last?.hasPrefix(" f freeze card  ? help") == true)
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

    @Test("f on the detail freezes the card: Frozen here, on Cards, and on Home once the stream says so, without a reload")
    func freezeHere() async throws {
        let harness = try await openDetail(row: 0)
        await harness.send(.character("f"))
        #expect(harness.cards.freezes.all.map(\.cardID) == ["c_issued"])
        #expect(harness.screen.contains("Yes: it cannot be used or activated"))
        #expect(harness.screen.contains("Visa •••• 0005 frozen."))
        #expect(harness.terminal.lines.last?.hasPrefix(" f unfreeze card  Esc back") == true)
        assertSnapshot(of: harness.terminal, as: .screen, named: "card-detail-frozen-here")
        let homeLoads = harness.account.calls.count
        await harness.send(.escape)
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("Skiff card · expires 11/30 · Frozen"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        var frozen = Seeds.issuedCard
        frozen.frozen = true
        #expect(await harness.cardsChanged(to: [frozen, Seeds.externalCard]) {
            harness.screen.contains("Skiff card · expires 11/30 · Frozen")
        }, "\(harness.screen)")
        #expect(harness.account.calls.count == homeLoads)
    }

    @Test("d on an added card's detail asks, on Keep first; confirmed, the card goes from Cards and Home")
    func removeHere() async throws {
        let harness = try await openDetail(row: 1)
        await harness.send(.character("d"))
        assertSnapshot(of: harness.terminal, as: .screen, named: "card-detail-remove")
        await harness.send(.enter)
        #expect(harness.cards.removals.count == 0, "Enter at once keeps the card")
        #expect(harness.top is CardDetailViewController)
        await harness.send(.character("d"), .left, .enter)
        #expect(harness.cards.removals.all == ["c_ext"])
        #expect(harness.top is CardsViewController)
        #expect(harness.screen.contains("Visa •••• 4242 removed."))
        #expect(!harness.screen.contains("Added card"))
        await harness.send(.escape)
        #expect(harness.top is HomeViewController)
        #expect(await harness.cardsChanged(to: [Seeds.issuedCard]) { !harness.screen.contains("•••• 4242") }, "\(harness.screen)")
    }

    @Test("d on the Skiff card's detail does nothing")
    func issuedNotRemovable() async throws {
        let harness = try await openDetail(row: 0)
        await harness.send(.character("d"))
        #expect(harness.navigation.presentedViewControllers.isEmpty)
        #expect(harness.cards.removals.count == 0)
    }
}
