import TerminalUI

@MainActor
protocol TransactionDetailDisplayLogic: AnyObject {
    func displayLoad(viewModel: TransactionDetail.Load.ViewModel)
}

/// One transaction in full.
@MainActor
final class TransactionDetailViewController: SceneViewController, TransactionDetailDisplayLogic, SceneDisplay {
    var interactor: (any TransactionDetailBusinessLogic)?

    private let screen = DetailScreen()

    init(keys: WalletKeys = .standard) {
        super.init(title: "Transaction", keys: keys)
    }

    override func viewDidLoad() {
        view.addSubview(screen.panel)
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: TransactionDetail.Load.ViewModel) {
        screen.show(viewModel, on: self)
    }
}
