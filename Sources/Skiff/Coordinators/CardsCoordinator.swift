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
        let interactor = CardDetailInteractor(presenter: presenter, card: card)
        return assemble(CardDetailViewController(keys: keys), interactor, presenter, logic: { $0 }, display: { $0 })
    }
}

/// What Cards changed, for the screens under it to show.
enum CardsChange: Sendable {
    case changed(Card)
    case removed(Card)
}

extension Coordinator {
    /// Pushes Cards over the current screen as a child flow, with Card detail pushed over it on Enter; each
    /// change reaches `onChange` as it lands (also after the person left Cards), and the flow finishes when
    /// the person goes back.
    func startCards(
        _ cards: [Card], navigation: NavigationController, factory: SceneFactory,
        onChange: @escaping (CardsChange) -> Void = { _ in }, onFinish: @escaping () -> Void = {}
    ) {
        let child = SceneFlowCoordinator<Never>(navigation: navigation) { finish in
            let (controller, interactor) = factory.cards(cards)
            interactor.route = { [weak navigation] route in
                switch route {
                case .openCard(let card):
                    let (detail, detailInteractor) = factory.cardDetail(card)
                    detailInteractor.route = { [weak navigation] route in
                        switch route {
                        case .back: _ = navigation?.pop()
                        }
                    }
                    navigation?.push(detail)
                case .changed(let card): onChange(.changed(card))
                case .removed(let card): onChange(.removed(card))
                case .back: finish(nil)
                }
            }
            return controller
        }
        startChild(child) { _ in onFinish() }
    }
}
