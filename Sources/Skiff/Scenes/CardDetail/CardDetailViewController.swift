import TerminalUI

@MainActor
protocol CardDetailDisplayLogic: AnyObject {
    func displayLoad(viewModel: CardDetail.Load.ViewModel)
    func displayUpdate(viewModel: CardDetail.Update.ViewModel)
    func displayRemove(viewModel: CardDetail.Remove.ViewModel)
}

/// One card in full; the key map's keys freeze or unfreeze it, or remove it if it is an added card.
@MainActor
final class CardDetailViewController: SceneViewController, CardDetailDisplayLogic, SceneDisplay {
    var interactor: (any CardDetailBusinessLogic)?

    private let stack = VStack(spacing: 0)
    private let screen = DetailScreen()
    private let banner = Banner()
    private let spinner = Spinner("Working…")

    init(keys: WalletKeys = .standard) {
        super.init(title: "Card", keys: keys)
    }

    override func viewDidLoad() {
        stack.add(banner)
        stack.add(screen.panel, size: .fill)
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    func displayLoad(viewModel: CardDetail.Load.ViewModel) {
        screen.show(viewModel, on: self)
    }

    /// The keys for this card: freezing words what it would do, and removing is offered only for an added card.
    func displayUpdate(viewModel: CardDetail.Update.ViewModel) {
        var bindings = [
            bind(.freezeCard, viewModel.freezeHelp) { [weak self] in self?.interactor?.freeze(request: .init()) },
        ]
        if viewModel.canRemove {
            bindings.append(bind(.removeCard) { [weak self] in self?.interactor?.remove(request: .init()) })
        }
        keyBindings = bindings
        showStatus(viewModel.banner, in: banner, busy: viewModel.busyText, spinner: spinner)
    }

    func displayRemove(viewModel: CardDetail.Remove.ViewModel) {
        navigationController?.present(viewModel.alert { [weak self] cardID in
            self?.interactor?.confirmRemove(request: .init(cardID: cardID))
        })
    }
}
