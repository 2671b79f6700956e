import SkiffCore
import TerminalUI

extension SceneFactory {
    /// Send money from `balance` (what Home shows), over the app's transfer worker.
    func sendMoney(balance: Money) -> (SendMoneyViewController, SendMoneyInteractor) {
        let presenter = SendMoneyPresenter(formatting: dependencies.formatting)
        let interactor = SendMoneyInteractor(presenter: presenter, transfers: dependencies.transfers, balance: balance, tasks: tasks)
        return assemble(SendMoneyViewController(keys: dependencies.keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}

/// How Send money ended.
enum SendMoneyOutcome: Sendable {
    /// The money went; the person saw the receipt.
    case sent(SentTransfer)
}

extension Coordinator {
    /// Pushes Send money over the current screen as a child flow, popped when it routes away; then `onFinish`
    /// runs with the outcome (nil when the person went back without sending).
    func startSendMoney(
        navigation: NavigationController, factory: SceneFactory, balance: Money,
        onFinish: @escaping (SendMoneyOutcome?) -> Void = { _ in }
    ) {
        let child = SceneFlowCoordinator<SendMoneyOutcome>(navigation: navigation) { finish in
            let (controller, interactor) = factory.sendMoney(balance: balance)
            interactor.route = { route in
                switch route {
                case .sent(let transfer): finish(.sent(transfer))
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
