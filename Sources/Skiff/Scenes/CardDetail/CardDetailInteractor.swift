import SkiffCore

@MainActor
protocol CardDetailBusinessLogic: AnyObject {
    func load(request: CardDetail.Load.Request)
    func back(request: CardDetail.Back.Request)
}

/// Where Card detail sends the person next.
enum CardDetailRoute: Sendable {
    case back
}

/// Hands the card Cards passed in to the Presenter; no further I/O is needed.
@MainActor
final class CardDetailInteractor: CardDetailBusinessLogic {
    private let presenter: any CardDetailPresentationLogic
    private let card: Card
    var route: (CardDetailRoute) -> Void = { _ in }

    init(presenter: any CardDetailPresentationLogic, card: Card) {
        self.presenter = presenter
        self.card = card
    }

    func load(request: CardDetail.Load.Request) {
        presenter.presentLoad(response: .init(card: card))
    }

    func back(request: CardDetail.Back.Request) {
        route(.back)
    }
}
