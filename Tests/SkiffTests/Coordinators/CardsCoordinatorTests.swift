import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// A parent flow that only starts Cards.
@MainActor
final class CardsParent: Coordinator {
    var children: [any Coordinator] = []
    func start() {}
}

@MainActor
@Suite("Cards coordinator", .timeLimit(.minutes(3)))
struct CardsCoordinatorTests {
    let holder = CardHolder(name: "Alex Rivera", phoneE164: "+12025550143")

    let terminal = HeadlessTerminal(width: 100, height: 30)
    var screen: String { terminal.lines.joined(separator: "\n") }

    /// Cards over a parent screen, ready to be started as the parent's child.
    func start(_ cards: [Card] = [Seeds.issuedCard]) throws -> (Application, NavigationController, CardsParent, CardsCoordinator) {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: terminal, rootViewController: navigation)
        try app.start()
        let parent = CardsParent()
        let cards = CardsCoordinator(cards, navigation: navigation, factory: .doubles(tasks: app.tasks), holder: holder)
        return (app, navigation, parent, cards)
    }

    @Test("Cards is pushed over the current screen; once loaded, Esc pops it and the child flow finishes once")
    func startAndBack() async throws {
        let (app, navigation, parent, cards) = try start()
        var finished = 0
        parent.startChild(cards) { _ in finished += 1 }
        #expect(navigation.topViewController is CardsViewController)
        #expect(parent.children.count == 1)
        #expect(parent.children.first === cards)
        await app.settle()
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(finished == 1)
    }

    @Test("Enter runs Card detail as a child of Cards, Esc pops it; a freeze there reaches Cards")
    func detailAndChange() async throws {
        let (app, navigation, parent, cards) = try start()
        parent.startChild(cards)
        await app.settle()
        app.send(.enter)
        #expect(navigation.topViewController is CardDetailViewController)
        #expect(cards.children.count == 2)
        app.send(.escape)
        #expect(navigation.topViewController is CardsViewController)
        #expect(cards.children.count == 1)
        app.send(.enter)
        app.send(.character("f"))
        await app.settle()
        app.send(.escape)
        await app.settle()
        #expect(navigation.topViewController is CardsViewController)
        #expect(screen.contains("Skiff card · expires 11/30 · Frozen"), "\(screen)")
    }

    @Test("a on Cards runs Add card as a child of Cards, popped back to Cards; cancelled, nothing is added")
    func addFromCards() async throws {
        let (app, navigation, parent, cards) = try start()
        parent.startChild(cards)
        await app.settle()
        app.send(.character("a"))
        #expect(navigation.topViewController is AddCardViewController)
        #expect(parent.children.count == 1)
        #expect(cards.children.last is SceneFlowCoordinator<Card>)
        let add = try #require(navigation.topViewController as? AddCardViewController)
        #expect(add.holderName.text == "ALEX RIVERA", "the name printed on the card is the signed-in person's")
        app.send(.escape)
        #expect(navigation.topViewController is CardsViewController)
        #expect(cards.children.count == 1)
    }

    @Test("v on Cards runs Activate card for the selected card, its code going to the holder's number; back on Cards it is active")
    func activateFromCards() async throws {
        let (app, navigation, parent, cards) = try start()
        parent.startChild(cards)
        await app.settle()
        app.send(.character("v"))
        #expect(navigation.topViewController is ActivateCardViewController)
        app.type("0005")
        app.send(.enter)
        await app.settle()
        app.type("482913")
        app.send(.enter)
        await app.settle()
        #expect(navigation.topViewController is CardsViewController)
        #expect(cards.children.count == 1)
        #expect(screen.contains("Skiff card · expires 11/30 · Active"), "\(screen)")
    }
}
