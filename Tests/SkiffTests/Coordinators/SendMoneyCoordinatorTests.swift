import SkiffCore
import Testing
import TerminalUI
@testable import Skiff

/// A parent flow that only starts Send money.
@MainActor
private final class SendMoneyParent: Coordinator {
    var children: [any Coordinator] = []
    func start() {}
}

@MainActor
@Suite("Send money coordinator")
struct SendMoneyCoordinatorTests {
    @Test("Send money is pushed over the current screen; Esc pops it and the child flow finishes once")
    func startAndBack() async throws {
        let navigation = NavigationController(root: ViewController(title: "Parent"))
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: navigation)
        try app.start()
        let parent = SendMoneyParent()
        var finished = 0
        parent.startSendMoney(
            navigation: navigation, factory: .doubles(tasks: app.tasks), balance: Seeds.summary.balance,
            userID: Seeds.session.user.id, onFinish: { outcome in
                #expect(outcome == nil)
                finished += 1
            }
        )
        await app.settle()
        #expect(navigation.topViewController is SendMoneyViewController)
        #expect(parent.children.count == 1)
        app.send(.escape)
        #expect(navigation.viewControllers.count == 1)
        #expect(parent.children.isEmpty)
        #expect(finished == 1)
    }
}
