import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Launch screen")
struct LaunchScreenTests {
    @Test("the name and the server it connects to")
    func launch() async throws {
        let terminal = HeadlessTerminal(width: 100, height: 30, capabilities: .init(hasColor: false, isUnicode: true))
        let presenter = LaunchPresenter()
        let interactor = LaunchInteractor(presenter: presenter, sessions: SessionStoreDouble(), serverDescription: "127.0.0.1:8080", clock: .immediate())
        let controller = LaunchViewController()
        controller.interactor = interactor
        presenter.viewController = controller
        var routes = 0
        interactor.route = { _ in routes += 1 }
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: controller))
        try app.start()
        controller.start()
        app.render()
        #expect(routes == 1)
        assertSnapshot(of: terminal, as: .screen, named: "launch")
    }
}
