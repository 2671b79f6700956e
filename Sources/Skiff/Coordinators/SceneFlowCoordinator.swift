import SkiffCore
import TerminalUI

/// A flow of one scene pushed over its parent's screen: popped when the scene routes away, finishing with what it
/// produced, or nil when the person went back. Every screen shown over another runs as one (or inside a
/// coordinator of several scenes), started with `startChild`; the flows of one scene that more than one
/// coordinator starts are built below.
@MainActor
final class SceneFlowCoordinator<Outcome>: FinishingCoordinator {
    enum Event {
        /// The flow ended; with its outcome, or nil when cancelled.
        case finished(Outcome?)
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let build: (_ finish: @escaping (Outcome?) -> Void) -> ViewController
    private weak var controller: ViewController?

    /// `build` makes the scene and routes its outcome to `finish`.
    init(navigation: NavigationController, build: @escaping (_ finish: @escaping (Outcome?) -> Void) -> ViewController) {
        self.navigation = navigation
        self.build = build
    }

    func start() {
        let controller = build { [weak self] outcome in self?.finish(outcome) }
        self.controller = controller
        navigation.push(controller)
    }

    /// Pops the scene, if it is still the top screen (an answer may land after the person left it), and finishes
    /// once.
    private func finish(_ outcome: Outcome?) {
        if let controller, navigation.topViewController === controller { _ = navigation.pop() }
        onFinish(.finished(outcome))
        onFinish = { _ in }
    }
}

/// How Send money ended.
enum SendMoneyOutcome: Sendable {
    /// The money went; the person saw the receipt.
    case sent(SentTransfer)
}

/// How Top up ended.
enum TopUpOutcome: Sendable {
    /// The money is in the wallet; the person saw the receipt.
    case added(AddedMoney)
}

extension SceneFlowCoordinator where Outcome == SendMoneyOutcome {
    /// Send money from `balance`; `opened` gets the scene's business logic once it is built, for what the live
    /// stream tells it while it is open (hold it weakly: it goes with the screen).
    static func sendMoney(
        navigation: NavigationController, factory: SceneFactory, balance: Money, userID: String,
        opened: @escaping (any SendMoneyBusinessLogic) -> Void = { _ in }
    ) -> SceneFlowCoordinator {
        SceneFlowCoordinator(navigation: navigation) { finish in
            let (controller, interactor) = factory.sendMoney(balance: balance, userID: userID)
            interactor.route = { route in
                switch route {
                case .sent(let transfer): finish(.sent(transfer))
                case .back: finish(nil)
                }
            }
            opened(interactor)
            return controller
        }
    }
}

extension SceneFlowCoordinator where Outcome == TopUpOutcome {
    /// Top up from one of `cards` into the wallet holding `balance`.
    static func topUp(navigation: NavigationController, factory: SceneFactory, cards: [Card], balance: Money) -> SceneFlowCoordinator {
        SceneFlowCoordinator(navigation: navigation) { finish in
            let (controller, interactor) = factory.topUp(cards: cards, balance: balance)
            interactor.route = { route in
                switch route {
                case .added(let money): finish(.added(money))
                case .back: finish(nil)
                }
            }
            return controller
        }
    }
}

extension SceneFlowCoordinator where Outcome == Card {
    /// Add card, with `holderName` printed on the card; finishes with the card the server added.
    static func addCard(navigation: NavigationController, factory: SceneFactory, holderName: String) -> SceneFlowCoordinator {
        SceneFlowCoordinator(navigation: navigation) { finish in
            let (controller, interactor) = factory.addCard(holderName: holderName)
            interactor.route = { route in
                switch route {
                case .added(let card): finish(card)
                case .back: finish(nil)
                }
            }
            return controller
        }
    }

    /// Activate card for `card`, its code going to `phoneE164`; finishes with the card, active.
    static func activateCard(
        _ card: Card, navigation: NavigationController, factory: SceneFactory, phoneE164: String
    ) -> SceneFlowCoordinator {
        SceneFlowCoordinator(navigation: navigation) { finish in
            let (controller, interactor) = factory.activateCard(card, phoneE164: phoneE164)
            interactor.route = { route in
                switch route {
                case .activated(let card): finish(card)
                case .back: finish(nil)
                }
            }
            return controller
        }
    }
}
