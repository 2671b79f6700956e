import SkiffCore
import SnapshotTesting
import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("Send money screen")
struct SendMoneyScreenTests {
    /// The scene wired as `SceneFactory.assemble` wires it, alone on a headless 100×30 terminal; sending the form
    /// answers `answer`.
    private func start(answer: Result<Void, NetworkError>) throws -> (Application, HeadlessTerminal, SendMoneyInteractor) {
        let terminal = HeadlessTerminal(width: 100, height: 30, capabilities: .init(hasColor: false, isUnicode: true))
        let controller = SendMoneyViewController()
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: controller))
        let presenter = SendMoneyPresenter(formatting: Seeds.utc)
        let interactor = SendMoneyInteractor(presenter: presenter, send: { _ async throws(NetworkError) in try answer.get() }, tasks: app.tasks)
        controller.interactor = interactor
        presenter.viewController = controller
        try app.start()
        return (app, terminal, interactor)
    }

    /// The screen over a spy of its business logic.
    private func startOverSpy() throws -> (Application, SendMoneyBusinessLogicSpy) {
        let interactor = SendMoneyBusinessLogicSpy()
        let controller = SendMoneyViewController()
        controller.interactor = interactor
        let app = Application(terminal: HeadlessTerminal(width: 100, height: 30), rootViewController: NavigationController(root: controller))
        try app.start()
        return (app, interactor)
    }

    @Test("the screen as it first appears")
    func firstScreen() throws {
        let (_, terminal, _) = try start(answer: .success(()))
        assertSnapshot(of: terminal, as: .screen, named: "send-money")
    }

    @Test("Enter sends what was typed")
    func enterSends() throws {
        let (app, interactor) = try startOverSpy()
        app.send(.character("x"))
        app.send(.enter)
        #expect(interactor.submitCalls.map(\.form.countryCode) == ["x"])
    }

    @Test("a field the server refuses shows the server's words under it")
    func serverFieldError() async throws {
        let refusal = NetworkError.validation(detail: "Invalid", fields: [FieldError(field: "countryCode", message: "Not this one.")])
        let (app, terminal, _) = try start(answer: .failure(refusal))
        app.send(.enter)
        await app.settle()
        #expect(terminal.lines.contains { $0.contains("Not this one.") })
    }

    @Test("Esc asks the interactor to go back")
    func escape() throws {
        let (app, interactor) = try startOverSpy()
        app.send(.escape)
        #expect(interactor.backCalls.count == 1)
    }
}
