import TerminalUI

extension SceneFactory {
    /// `send`: the worker call that sends the form (a closure over one of `dependencies`' workers).
    func sendMoney(send: @escaping @Sendable (SendMoney.Form) async throws(NetworkError) -> Void) -> (SendMoneyViewController, SendMoneyInteractor) {
        let presenter = SendMoneyPresenter(formatting: dependencies.formatting)
        let interactor = SendMoneyInteractor(presenter: presenter, send: send, tasks: tasks)
        return assemble(SendMoneyViewController(), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}

extension Coordinator {
    /// Pushes Send money over the current screen as a child flow, popped when it routes away; then `onFinish`
    /// runs (with `()` when the form was sent, nil when the person went back).
    func startSendMoney(
        navigation: NavigationController, factory: SceneFactory,
        send: @escaping @Sendable (SendMoney.Form) async throws(NetworkError) -> Void,
        onFinish: @escaping (Void?) -> Void = { _ in }
    ) {
        let child = SceneFlowCoordinator<Void>(navigation: navigation) { finish in
            let (controller, interactor) = factory.sendMoney(send: send)
            interactor.route = { route in
                switch route {
                case .done: finish(())
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(child) { event in
            if case .finished(let outcome) = event { onFinish(outcome) }
        }
    }
}
