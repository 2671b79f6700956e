import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// A parent flow that only starts the flow under test.
@MainActor
private final class Parent: Coordinator {
    var children: [any Coordinator] = []
    func start() {}
}

@MainActor
@Suite("Scene flow coordinator", .timeLimit(.minutes(3)))
struct SceneFlowCoordinatorTests {
    func start() throws -> (Application, NavigationController) {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        return (app, navigation)
    }

    @Test("the scene is pushed as the parent's child; finishing pops it, removes the child and calls back once")
    func pushAndFinish() throws {
        let (_, navigation) = try start()
        let parent = Parent()
        let scene = ViewController(title: "Scene")
        var finish: (Int?) -> Void = { _ in }
        var outcomes: [Int?] = []
        parent.startChild(SceneFlowCoordinator<Int>(navigation: navigation) { done in
            finish = done
            return scene
        }) { event in
            if case .finished(let outcome) = event { outcomes.append(outcome) }
        }
        #expect(navigation.topViewController === scene)
        #expect(parent.children.count == 1)
        finish(7)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        finish(8)
        #expect(outcomes == [7], "a second finish does nothing")
    }

    @Test("an outcome that lands once the person has left the scene pops nothing")
    func finishWhenNotOnTop() throws {
        let (_, navigation) = try start()
        let parent = Parent()
        var finish: (Int?) -> Void = { _ in }
        let flow = SceneFlowCoordinator<Int>(navigation: navigation) { done in
            finish = done
            return ViewController(title: "Scene")
        }
        var outcomes: [Int?] = []
        parent.startChild(flow) { event in
            if case .finished(let outcome) = event { outcomes.append(outcome) }
        }
        let above = ViewController(title: "Above")
        navigation.push(above)
        finish(nil)
        #expect(navigation.topViewController === above, "the screen above stays")
        #expect(navigation.viewControllers.count == 3)
        #expect(outcomes.count == 1)
    }

    @Test("Send money is pushed over the current screen, handing its business logic over; Esc pops it and it finishes once, with nothing sent")
    func sendMoneyBack() async throws {
        let (app, navigation) = try start()
        let parent = Parent()
        var opened: (any SendMoneyBusinessLogic)?
        var outcomes: [SendMoneyOutcome?] = []
        let flow = SceneFlowCoordinator.sendMoney(
            navigation: navigation, factory: .doubles(tasks: app.tasks), balance: Seeds.summary.balance,
            userID: Seeds.session.user.id
        ) { opened = $0 }
        parent.startChild(flow) { event in
            if case .finished(let outcome) = event { outcomes.append(outcome) }
        }
        await app.settle()
        #expect(navigation.topViewController is SendMoneyViewController)
        #expect(opened === (navigation.topViewController as? SendMoneyViewController)?.interactor)
        #expect(parent.children.count == 1)
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(outcomes.count == 1)
        #expect(outcomes.first.map { $0 == nil } == true)
    }

    @Test("Top up is pushed over the current screen; Esc pops it and the child flow finishes once, with nothing added")
    func topUpBack() async throws {
        let (app, navigation) = try start()
        let parent = Parent()
        var outcomes: [TopUpOutcome?] = []
        let flow = SceneFlowCoordinator.topUp(
            navigation: navigation, factory: .doubles(tasks: app.tasks), cards: [Seeds.externalCard],
            balance: Seeds.summary.balance
        )
        parent.startChild(flow) { event in
            if case .finished(let outcome) = event { outcomes.append(outcome) }
        }
        await app.settle()
        #expect(navigation.topViewController is TopUpViewController)
        #expect(parent.children.count == 1)
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(outcomes.count == 1)
        #expect(outcomes.first.map { $0 == nil } == true)
    }

    @Test("Top up: after the receipt the flow finishes with the money added, and pops")
    func topUpAdded() async throws {
        let (app, navigation) = try start()
        let parent = Parent()
        var outcomes: [TopUpOutcome?] = []
        let flow = SceneFlowCoordinator.topUp(
            navigation: navigation, factory: .doubles(tasks: app.tasks), cards: [Seeds.externalCard],
            balance: Seeds.summary.balance
        )
        parent.startChild(flow) { event in
            if case .finished(let outcome) = event { outcomes.append(outcome) }
        }
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
