import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// A parent flow that only starts Cards.
@MainActor
private final class CardsParent: Coordinator {
    var children: [any Coordinator] = []
    func start() {}
}

@MainActor
@Suite("Cards coordinator", .timeLimit(.minutes(3)))
struct CardsCoordinatorTests {
    let holder = CardHolder(name: "Alex Rivera", phoneE164: "+12025550143")

    @Test("Cards is pushed over the current screen; once loaded, Esc pops it and the child flow finishes once")
    func startAndBack() async throws {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        let parent = CardsParent()
        var finished = 0
        parent.startCards([Seeds.issuedCard], navigation: navigation, factory: .doubles(tasks: app.tasks), holder: holder) { _ in } onFinish: {
            finished += 1
        }
        #expect(navigation.topViewController is CardsViewController)
        #expect(parent.children.count == 1)
        await app.settle()
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(finished == 1)
    }

    @Test("Enter pushes Card detail over Cards and Esc pops back to Cards; a freeze reaches onChange")
    func detailAndChange() async throws {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        let parent = CardsParent()
        var changes: [CardsChange] = []
        parent.startCards([Seeds.issuedCard], navigation: navigation, factory: .doubles(tasks: app.tasks), holder: holder) { changes.append($0) }
        await app.settle()
        app.send(.enter)
        #expect(navigation.topViewController is CardDetailViewController)
        app.send(.escape)
        #expect(navigation.topViewController is CardsViewController)
        app.send(.character("f"))
        await app.settle()
        guard case .changed(let card)? = changes.last, card.frozen else {
            Issue.record("got \(changes)")
            return
        }
    }

    @Test("a on Cards runs Add card as a child of the parent, popped back to Cards; the card reaches Cards and onChange")
    func addFromCards() async throws {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        let parent = CardsParent()
        var changes: [CardsChange] = []
        parent.startCards([Seeds.issuedCard], navigation: navigation, factory: .doubles(tasks: app.tasks), holder: holder) {
            changes.append($0)
        }
        await app.settle()
        app.send(.character("a"))
        #expect(navigation.topViewController is AddCardViewController)
        #expect(parent.children.count == 2)
        #expect(parent.children.last is SceneFlowCoordinator<Card>)
        let add = try #require(navigation.topViewController as? AddCardViewController)
        #expect(add.holderName.text == "ALEX RIVERA", "the name printed on the card is the signed-in person's")
        app.send(.escape)
        #expect(navigation.topViewController is CardsViewController)
        #expect(parent.children.count == 1)
        #expect(changes.isEmpty)
    }

    @Test("v on Cards runs Activate card for the selected card, its code going to the holder's number; back on Cards it is active")
    func activateFromCards() async throws {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        let parent = CardsParent()
        var changes: [CardsChange] = []
        parent.startCards([Seeds.issuedCard], navigation: navigation, factory: .doubles(tasks: app.tasks), holder: holder) {
            changes.append($0)
        }
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
        #expect(parent.children.count == 1)
        guard case .changed(let card)? = changes.last, card.status == .active else {
            Issue.record("got \(changes)")
            return
        }
    }
}
