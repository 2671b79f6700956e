import SkiffCore
import TerminalUI

/// Who is signed in, as the card flows need it: the name printed on a card they add, and the number an
/// activation code goes to (the development outbox is read by it).
struct CardHolder: Sendable {
    var name: String
    var phoneE164: String
}

/// Cards over the current screen, with Card detail pushed over it on Enter and the Add card and Activate card
/// flows on their keys, all as its children; what Card detail and those flows change reaches Cards as it lands
/// (a removal also after the person left the detail). The flow finishes when the person goes back from Cards.
/// Other screens hear of the changes from the live stream.
@MainActor
final class CardsCoordinator: FinishingCoordinator {
    enum Event {
        /// The person went back from Cards.
        case finished
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let cards: [Card]
    private let holder: CardHolder

    init(_ cards: [Card], navigation: NavigationController, factory: SceneFactory, holder: CardHolder) {
        self.cards = cards
        self.navigation = navigation
        self.factory = factory
        self.holder = holder
    }

    func start() {
        let flow = SceneFlowCoordinator<Never>(navigation: navigation) { [weak self, factory, cards] finish in
            let (controller, interactor) = factory.cards(cards)
            interactor.route = { [weak self, weak interactor] route in
                switch route {
                case .openCard(let card): self?.showCardDetail(card, cards: interactor)
                case .addCard:
                    self?.startAddCard { card in interactor?.changedElsewhere(request: .init(change: .added(card))) }
                case .activateCard(let card):
                    self?.startActivateCard(card) { card in interactor?.changedElsewhere(request: .init(change: .activated(card))) }
                // Cards shows its own freezes and removals; other screens hear of them from the live stream.
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(flow) { [weak self] _ in self?.onFinish(.finished) }
    }

    /// Card detail over Cards; each change it makes reaches Cards as it lands, and once the card is removed the
    /// detail is popped (if the person has not left it already).
    private func showCardDetail(_ card: Card, cards: (any CardsBusinessLogic)?) {
        startChild(SceneFlowCoordinator<Never>(navigation: navigation) { [factory, weak cards] finish in
            let (controller, interactor) = factory.cardDetail(card)
            interactor.route = { route in
                switch route {
                case .back: finish(nil)
                case .changed(let card): cards?.changedElsewhere(request: .init(change: .changed(card)))
                case .removed(let card):
                    finish(nil)
                    cards?.changedElsewhere(request: .init(change: .removed(card)))
                }
            }
            return controller
        })
    }

    private func startAddCard(onAdded: @escaping (Card) -> Void) {
        startChild(SceneFlowCoordinator.addCard(navigation: navigation, factory: factory, holderName: holder.name)) { event in
            if case .finished(let card?) = event { onAdded(card) }
        }
    }

    private func startActivateCard(_ card: Card, onActivated: @escaping (Card) -> Void) {
        let flow = SceneFlowCoordinator.activateCard(card, navigation: navigation, factory: factory, phoneE164: holder.phoneE164)
        startChild(flow) { event in
            if case .finished(let card?) = event { onActivated(card) }
        }
    }
}
