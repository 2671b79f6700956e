import TerminalUI

@MainActor
protocol CardDetailDisplayLogic: AnyObject {
    func displayLoad(viewModel: CardDetail.Load.ViewModel)
}

/// One card in full.
@MainActor
final class CardDetailViewController: SceneViewController, CardDetailDisplayLogic, SceneDisplay {
    var interactor: (any CardDetailBusinessLogic)?

    private let screen = DetailScreen()

    init(keys: WalletKeys = .standard) {
        super.init(title: "Card", keys: keys)
    }

    override func viewDidLoad() {
        view.addSubview(screen.panel)
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: CardDetail.Load.ViewModel) {
        screen.show(viewModel, on: self)
    }
}
