import TerminalUI

@MainActor
protocol CardDetailDisplayLogic: AnyObject {
    func displayLoad(viewModel: CardDetail.Load.ViewModel)
}

/// One card in full.
@MainActor
final class CardDetailViewController: SceneViewController, CardDetailDisplayLogic, SceneDisplay {
    var interactor: (any CardDetailBusinessLogic)?

    private let stack = VStack(spacing: 1)
    private let heading = Label("", style: .title)
    private let details = Form(spacing: 0)
    private let hint = Label("", style: .muted)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Card", keys: keys)
    }

    override func viewDidLoad() {
        stack.add(heading, size: .fixed(1))
        stack.add(details)
        stack.add(hint, size: .fixed(1))
        view.addSubview(Panel(title: nil, content: stack))
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: CardDetail.Load.ViewModel) {
        title = viewModel.title
        heading.text = viewModel.title
        for row in viewModel.rows {
            details.addField(row.label, Label(row.value))
        }
        hint.text = viewModel.hint ?? ""
    }
}
