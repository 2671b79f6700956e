import TerminalUI

@MainActor
protocol LaunchDisplayLogic: AnyObject {
    func displayStart(viewModel: Launch.Start.ViewModel)
}

/// The first screen: the name, while the app decides where to start.
@MainActor
final class LaunchViewController: SceneViewController, LaunchDisplayLogic, SceneDisplay {
    var interactor: (any LaunchBusinessLogic)?
    private let stack = VStack(spacing: 1)
    private let subtitle = Label("", style: .muted, alignment: .center)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Skiff", keys: keys)
    }

    override func viewDidLoad() {
        stack.add(View(), size: .fill)
        stack.add(Label("Skiff", style: .title, alignment: .center), size: .fixed(1))
        stack.add(Label("a wallet for your terminal", style: .muted, alignment: .center), size: .fixed(1))
        stack.add(subtitle, size: .fixed(1))
        stack.add(View(), size: .fill)
        view.addSubview(stack)
    }

    /// Decides where the app starts; the coordinator replaces this screen at once.
    func start() {
        interactor?.start(request: .init())
    }

    func displayStart(viewModel: Launch.Start.ViewModel) {
        subtitle.text = viewModel.subtitle
    }
}
