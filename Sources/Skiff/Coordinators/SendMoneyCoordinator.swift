import SkiffCore
import TerminalUI

extension SceneFactory {
    /// Send money from `balance` (what Home shows), over the app's transfer worker, offering the numbers the user
    /// `userID` last sent money to.
    func sendMoney(balance: Money, userID: String) -> (SendMoneyViewController, SendMoneyInteractor) {
        let presenter = SendMoneyPresenter(formatting: dependencies.formatting)
        let interactor = SendMoneyInteractor(
            presenter: presenter, transfers: dependencies.transfers, preferences: dependencies.preferences, userID: userID,
            balance: balance, tasks: tasks
        )
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
    /// runs with the outcome (nil when the person went back without sending). Returns the scene's business logic, for
    /// what the live stream tells it while it is open (hold it weakly: it goes with the screen).
    @discardableResult
    func startSendMoney(
        navigation: NavigationController, factory: SceneFactory, balance: Money, userID: String,
        onFinish: @escaping (SendMoneyOutcome?) -> Void = { _ in }
    ) -> (any SendMoneyBusinessLogic)? {
        var started: (any SendMoneyBusinessLogic)?
        let child = SceneFlowCoordinator<SendMoneyOutcome>(navigation: navigation) { finish in
            let (controller, interactor) = factory.sendMoney(balance: balance, userID: userID)
            started = interactor
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
        return started
    }
}
