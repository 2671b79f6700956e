import TerminalUI

@MainActor
protocol TransactionDetailDisplayLogic: AnyObject {
    func displayLoad(viewModel: TransactionDetail.Load.ViewModel)
}

/// One transaction in full.
@MainActor
final class TransactionDetailViewController: SceneViewController, TransactionDetailDisplayLogic, SceneDisplay {
    var interactor: (any TransactionDetailBusinessLogic)?

    private let stack = VStack(spacing: 1)
    private let amount = Label("", style: .title)
    private let details = Form(spacing: 0)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Transaction", keys: keys)
    }

    override func viewDidLoad() {
        stack.add(amount, size: .fixed(1))
        stack.add(details)
        view.addSubview(Panel(title: nil, content: stack))
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: TransactionDetail.Load.ViewModel) {
        title = viewModel.title
        amount.text = viewModel.amount
        for row in viewModel.rows {
            details.addField(row.label, Label(row.value))
        }
    }
}
