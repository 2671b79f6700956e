import TerminalUI

@MainActor
protocol SpendingDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Spending.UpdateViewModel)
}

/// The Spending panel, a part of Home: the month's summary line and a bar per category; Enter on a bar lists that
/// category's transactions. Home places it, and folds it away on a terminal too small for it beside the list.
@MainActor
final class SpendingViewController: SceneViewController, SpendingDisplayLogic, SceneDisplay {
    var interactor: (any SpendingBusinessLogic)?

    let chart = BarChart()
    private let summary = Label("", style: .muted)
    private let content = VStack(spacing: 0)
    private lazy var panel = Panel(title: "Spending", content: content)
    /// Whether the person wants the panel; it still folds away on a terminal smaller than `minimumSize`.
    private(set) var isWanted = false
    /// The size Home last laid out in.
    private var available: Size?
    static let minimumSize = Size(width: 40, height: 24)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Spending", keys: keys)
    }

    override func loadView() -> View { panel }

    override func viewDidLoad() {
        content.add(summary, size: .fixed(1))
        content.add(chart, size: .fill)
        panel.isHidden = true
        chart.onSelect = { [weak self] index in self?.interactor?.selectCategory(request: .init(index: index)) }
        // Two selectable views on Home: only the focused one shows its selection.
        chart.showsSelectionWhenUnfocused = false
    }

    /// Shows or hides the panel (Home's key, which works wherever the focus is).
    func toggle() {
        interactor?.toggle(request: .init())
    }

    /// Shows the panel only while it is wanted and `size` (Home's) has room for it beside the list.
    func fold(in size: Size) {
        available = size
        let fits = size.width >= Self.minimumSize.width && size.height >= Self.minimumSize.height
        let hidden = !(isWanted && fits)
        guard panel.isHidden != hidden else { return }
        panel.isHidden = hidden
    }

    func displayUpdate(viewModel: Spending.UpdateViewModel) {
        isWanted = viewModel.isShown
        panel.title = viewModel.title
        summary.text = viewModel.emptyText ?? viewModel.summary
        chart.entries = viewModel.bars.map { .init($0.category, $0.value, valueText: $0.amount) }
        content.setSize(.fixed(viewModel.bars.count), for: chart)
        if let available { fold(in: available) } else { panel.isHidden = !isWanted }
        setNeedsDisplay()
    }
}
