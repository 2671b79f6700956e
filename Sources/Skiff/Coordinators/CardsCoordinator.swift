import SkiffCore
import TerminalUI

extension SceneFactory {
    func cards(_ cards: [Card]) -> (CardsViewController, CardsInteractor) {
        let presenter = CardsPresenter(formatting: dependencies.formatting)
        let interactor = CardsInteractor(presenter: presenter, worker: dependencies.cards, cards: cards, tasks: tasks)
        return assemble(CardsViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }

    func cardDetail(_ card: Card) -> (CardDetailViewController, CardDetailInteractor) {
        let presenter = CardDetailPresenter(formatting: dependencies.formatting, keys: keys)
        let interactor = CardDetailInteractor(presenter: presenter, worker: dependencies.cards, card: card, tasks: tasks)
        return assemble(CardDetailViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}

/// What Cards changed, for the screens under it to show.
enum CardsChange: Sendable {
    /// Frozen, unfrozen or activated: the card as it is now.
    case changed(Card)
    case removed(Card)
    case added(Card)
}

/// Who is signed in, as the card flows need it: the name printed on a card they add, and the number an
/// activation code goes to (the development outbox is read by it).
struct CardHolder: Sendable {
    var name: String
    var phoneE164: String
}

extension Coordinator {
    /// Pushes Cards over the current screen as a child flow, with Card detail pushed over it on Enter and the Add
    /// card and Activate card flows on their keys; each change reaches Cards and `onChange` as it lands (also
    /// after the person left Cards), and the flow finishes when the person goes back.
    func startCards(
        _ cards: [Card], navigation: NavigationController, factory: SceneFactory, holder: CardHolder,
        onChange: @escaping (CardsChange) -> Void = { _ in }, onFinish: @escaping () -> Void = {}
    ) {
        let child = SceneFlowCoordinator<Never>(navigation: navigation) { [weak self] finish in
            let (controller, interactor) = factory.cards(cards)
            interactor.route = { [weak self, weak navigation, weak interactor] route in
                guard let navigation else { return }
                switch route {
                case .openCard(let card):
                    self?.showCardDetail(card, navigation: navigation, factory: factory) { change in
                        switch change {
                        case .changed(let card): interactor?.changedElsewhere(request: .init(change: .changed(card)))
                        case .removed(let card): interactor?.changedElsewhere(request: .init(change: .removed(card)))
                        case .added: break
                        }
                        onChange(change)
                    }
                case .addCard:
                    self?.startAddCard(navigation: navigation, factory: factory, holderName: holder.name) { card in
                        interactor?.changedElsewhere(request: .init(change: .added(card)))
                        onChange(.added(card))
                    }
                case .activateCard(let card):
                    self?.startActivateCard(card, navigation: navigation, factory: factory, phoneE164: holder.phoneE164) { card in
                        interactor?.changedElsewhere(request: .init(change: .activated(card)))
                        onChange(.changed(card))
                    }
                case .changed(let card): onChange(.changed(card))
                case .removed(let card): onChange(.removed(card))
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(child) { _ in onFinish() }
    }

    /// Pushes Card detail; each change it makes reaches `onChange` as it lands, and once the card is removed the
    /// detail is popped (if the person has not left it already).
    private func showCardDetail(
        _ card: Card, navigation: NavigationController, factory: SceneFactory, onChange: @escaping (CardsChange) -> Void
    ) {
        let (detail, interactor) = factory.cardDetail(card)
        interactor.route = { [weak navigation, weak detail] route in
            switch route {
            case .back: _ = navigation?.pop()
            case .changed(let card): onChange(.changed(card))
            case .removed(let card):
                if let detail, navigation?.topViewController === detail { _ = navigation?.pop() }
                onChange(.removed(card))
            }
        }
        navigation.push(detail)
    }

    /// Pushes Add card as a child flow, popped when it routes away; `onAdded` gets the card the server added.
    func startAddCard(
        navigation: NavigationController, factory: SceneFactory, holderName: String, onAdded: @escaping (Card) -> Void
    ) {
        let child = SceneFlowCoordinator<Card>(navigation: navigation) { finish in
            let (controller, interactor) = factory.addCard(holderName: holderName)
            interactor.route = { route in
                switch route {
                case .added(let card): finish(card)
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(child) { event in
            if case .finished(let card?) = event { onAdded(card) }
        }
    }

    /// Pushes Activate card for `card` as a child flow, popped when it routes away; the code goes to `phoneE164`;
    /// `onActivated` gets the card, active.
    func startActivateCard(
        _ card: Card, navigation: NavigationController, factory: SceneFactory, phoneE164: String,
        onActivated: @escaping (Card) -> Void
    ) {
        let child = SceneFlowCoordinator<Card>(navigation: navigation) { finish in
            let (controller, interactor) = factory.activateCard(card, phoneE164: phoneE164)
            interactor.route = { route in
                switch route {
                case .activated(let card): finish(card)
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(child) { event in
            if case .finished(let card?) = event { onActivated(card) }
        }
    }
}
