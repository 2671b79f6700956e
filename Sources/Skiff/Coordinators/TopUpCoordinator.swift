import SkiffCore
import TerminalUI

extension SceneFactory {
    /// Top up from one of `cards` (what Home has) into the wallet holding `balance`, over the app's transfer
    /// worker; the issuer's code goes to `phoneE164`, whose development outbox the code screen reads.
    func topUp(cards: [Card], balance: Money, phoneE164: String) -> (TopUpViewController, TopUpInteractor) {
        let presenter = TopUpPresenter(formatting: dependencies.formatting, keys: keys)
        let interactor = TopUpInteractor(
            presenter: presenter, transfers: dependencies.transfers, codes: codes, phoneE164: phoneE164, cards: cards,
            balance: balance, tasks: tasks
        )
        return assemble(TopUpViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}

/// How Top up ended.
enum TopUpOutcome: Sendable {
    /// The money is in the wallet; the person saw the receipt.
    case added(AddedMoney)
}

extension Coordinator {
    /// Pushes Top up over the current screen as a child flow, popped when it routes away; then `onFinish` runs
    /// with the outcome (nil when the person went back without adding money).
    func startTopUp(
        navigation: NavigationController, factory: SceneFactory, cards: [Card], balance: Money, phoneE164: String,
        onFinish: @escaping (TopUpOutcome?) -> Void = { _ in }
    ) {
        let child = SceneFlowCoordinator<TopUpOutcome>(navigation: navigation) { finish in
            let (controller, interactor) = factory.topUp(cards: cards, balance: balance, phoneE164: phoneE164)
            interactor.route = { route in
                switch route {
                case .added(let money): finish(.added(money))
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
