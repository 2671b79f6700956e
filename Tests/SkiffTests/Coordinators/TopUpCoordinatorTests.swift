import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// A parent flow that only starts Top up.
@MainActor
private final class TopUpParent: Coordinator {
    var children: [any Coordinator] = []
    func start() {}
}

@MainActor
@Suite("Top up coordinator")
struct TopUpCoordinatorTests {
    func start() throws -> (Application, NavigationController) {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        return (app, navigation)
    }

    @Test("Top up is pushed over the current screen; Esc pops it and the child flow finishes once, with nothing added")
    func startAndBack() async throws {
        let (app, navigation) = try start()
        let parent = TopUpParent()
        var outcomes: [TopUpOutcome?] = []
        parent.startTopUp(
            navigation: navigation, factory: .doubles(tasks: app.tasks), cards: [Seeds.externalCard],
            balance: Seeds.summary.balance, phoneE164: "+12025550143", onFinish: { outcomes.append($0) }
        )
        await app.settle()
        #expect(navigation.topViewController is TopUpViewController)
        #expect(parent.children.count == 1)
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(outcomes.count == 1)
        #expect(outcomes.first.map { $0 == nil } == true)
    }

    @Test("after the receipt the flow finishes with the money added, and pops")
    func added() async throws {
        let (app, navigation) = try start()
        let parent = TopUpParent()
        var outcomes: [TopUpOutcome?] = []
        parent.startTopUp(
            navigation: navigation, factory: .doubles(tasks: app.tasks), cards: [Seeds.externalCard],
            balance: Seeds.summary.balance, phoneE164: "+12025550143", onFinish: { outcomes.append($0) }
        )
        await app.settle()
        for key: Key in [.enter, .character("5"), .character("0"), .enter, .enter] {
            app.send(key)
            await app.settle()
        }
        #expect(navigation.topViewController is TopUpViewController, "the receipt stays until it is closed")
        app.send(.enter)
        await app.settle()
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        guard case .added(let money)?? = outcomes.first else {
            Issue.record("outcomes: \(outcomes)")
            return
        }
        #expect(money == Seeds.addedMoney)
    }
}
