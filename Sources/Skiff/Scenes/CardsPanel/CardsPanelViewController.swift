import TerminalUI

@MainActor
protocol CardsPanelDisplayLogic: AnyObject {
    func displayUpdate(viewModel: CardsPanel.UpdateViewModel)
}

/// Home's Cards panel: a line per card, the names in one column. Home binds the keys the panel names (manage,
/// activate, add).
@MainActor
final class CardsPanelViewController: SceneViewController, CardsPanelDisplayLogic, SceneDisplay {
    var interactor: (any CardsPanelBusinessLogic)?

    private let lines = VStack(spacing: 0)
    private lazy var panel = Panel(title: "Cards · \(keys.label(for: .openCards)) to manage", content: lines)
    private var shown: CardsPanel.UpdateViewModel?

    init(keys: WalletKeys = .standard) {
        super.init(title: "Cards panel", keys: keys)
    }

    override func loadView() -> View { panel }

    func displayUpdate(viewModel: CardsPanel.UpdateViewModel) {
        guard viewModel != shown else { return }
        shown = viewModel
        for item in lines.items { lines.remove(item.view) }
        if let empty = viewModel.emptyText { lines.add(Label(sentence(empty), style: .muted)) }
        // As wide as the widest title ("American Express •••• 0005" needs 26), so no brand is cut and the details
        // line up; never narrower than 20.
        let titleWidth = viewModel.cards.map { DisplayWidth.of($0.title) }.reduce(20, max)
        for card in viewModel.cards {
            let line = CardLine(
                title: card.title, summary: card.summary, status: sentence(card.status), statusWord: card.status.text,
                titleColumn: titleWidth, highlighted: card.needsActivation
            )
            lines.add(line, size: .fixed(1))
        }
    }
}

/// A card's line: its name in a column as wide as the widest name, then `Skiff card · expires 11/30 ·`, then its
/// status (`Inactive. Press v to activate.`). On a narrow line the status stays: the summary is cut first (the names'
/// column narrowing to this name to keep some of it), then dropped, then the prompt after the status is cut, and last
/// the name.
@MainActor
private final class CardLine: View {
    private let title: Label
    private let summary: Label
    private let status: Label
    private let statusWord: String
    private let titleColumn: Int

    init(title: String, summary: String, status: String, statusWord: String, titleColumn: Int, highlighted: Bool) {
        self.title = Label(title, style: highlighted ? .title : .text)
        self.summary = Label(summary + " ·", style: .muted)
        self.status = Label(status, style: .muted)
        self.statusWord = statusWord
        self.titleColumn = titleColumn
        super.init()
        addSubview(self.title)
        addSubview(self.summary)
        addSubview(self.status)
    }

    override func layoutSubviews() {
        let columns = Self.columns(
            width: bounds.width, titleColumn: titleColumn, title: DisplayWidth.of(title.text),
            summary: DisplayWidth.of(summary.text), status: DisplayWidth.of(status.text),
            statusWord: DisplayWidth.of(statusWord)
        )
        title.frame = Rect(x: 0, y: 0, width: columns.title, height: 1)
        summary.frame = Rect(x: columns.title + 2, y: 0, width: columns.summary, height: 1)
        let statusX = columns.title + 2 + (columns.summary > 0 ? columns.summary + 1 : 0)
        status.frame = Rect(x: statusX, y: 0, width: columns.status, height: 1)
    }

    /// The fewest columns of the summary worth showing (`Added card…`).
    static let minimumSummary = 8

    /// The columns of the name, the summary and the status within `width`, two apart and one before the status.
    static func columns(
        width: Int, titleColumn: Int, title: Int, summary: Int, status: Int, statusWord: Int
    ) -> (title: Int, summary: Int, status: Int) {
        // All of it.
        if titleColumn + 2 + summary + 1 + status <= width { return (titleColumn, summary, status) }
        // The summary cut, while enough of it still shows to read; then the names' column as narrow as this name.
        let summaryRoom = width - titleColumn - 2 - 1 - status
        if summaryRoom >= minimumSummary { return (titleColumn, summaryRoom, status) }
        let narrowSummaryRoom = width - title - 2 - 1 - status
        if narrowSummaryRoom >= minimumSummary { return (title, min(summary, narrowSummaryRoom), status) }
        // No summary.
        let titleRoom = width - 2 - status
        if titleRoom >= title { return (min(titleColumn, titleRoom), 0, status) }
        // The prompt after the status cut.
        let statusRoom = width - 2 - title
        if statusRoom >= statusWord { return (title, 0, statusRoom) }
        // The name cut: the status word stays.
        return (max(0, width - 2 - statusWord), 0, min(statusWord, max(0, width)))
    }
}
