import SkiffCore
import TerminalUI

@MainActor
protocol TransactionsDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Transactions.UpdateViewModel)
    func displayShowCategory(viewModel: Transactions.ShowCategory.ViewModel)
}

/// The transactions, a part of Home: a paged list under month headings, no wider than a row reads well, and the
/// search row under it. Home binds the keys that open and close the search (they work wherever the focus is).
@MainActor
final class TransactionsViewController: SceneViewController, TransactionsDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any TransactionsBusinessLogic)?

    let list = ListView(emptyText: "Loading transactions…")
    /// The list no wider than a row reads well: on a wide terminal the amounts stay near their text.
    private lazy var panel = Panel(title: "Transactions", content: ReadableWidth(list, maximum: Self.readableRowWidth))
    /// The widest the rows get, amount included (a classic terminal's width).
    static let readableRowWidth = 80
    private let searchRow = HStack(spacing: 1)
    let searchField = TextField(placeholder: "merchant, category, note or reference", maxLength: 100)
    private let stack = VStack(spacing: 0)
    private var rows = Transactions.UpdateViewModel.Rows(
        transactions: TransactionWindow(), blurred: false, currentYear: nil, heading: { _ in "" }
    ) { _ in .init(text: "", amount: "", isIncoming: false) }
    /// Set while the scene itself puts text in the search row (a category picked), which is no typing to search.
    private var settingSearchText = false
    /// The rows on screen after the list moved, and whether it neared its end: told to the interactor after the frame.
    private var scrolledTo: Range<Int>?
    private var wantsMoreRows = false

    init(keys: WalletKeys = .standard) {
        super.init(title: "Transactions", keys: keys)
    }

    override func loadView() -> View { stack }

    override func viewDidLoad() {
        stack.add(panel, size: .fill)
        // However many cards there are, the list keeps three rows (and its border).
        stack.setMinimum(5, for: panel)
        searchRow.add(Label("Search:", style: .muted))
        searchRow.add(searchField, size: .fill)
        searchRow.isHidden = true
        stack.add(searchRow, size: .fixed(1))

        list.dataSource = self
        // The next page is asked for two screens ahead, so PageDown never reaches the last row loaded while it comes.
        list.nearEndThreshold = 30
        list.openHelp = "open transaction"
        list.onSelect = { [weak self] line in
            guard let self, case .transaction(let index)? = self.rows.transactions.line(at: line) else { return }
            self.interactor?.selectTransaction(request: .init(index: index))
        }
        // Pages are asked for and let go of after the frame that moved the list (`didPresentFrame`): the key's frame
        // does not wait for them.
        list.onNearEnd = { [weak self] in self?.wantsMoreRows = true }
        list.onVisibleRowsChange = { [weak self] rows in self?.scrolledTo = rows }
        // Asked again on every move near the end, so a page refused once (offline, mid-refresh) is not lost.
        list.onSelectionChange = { [weak self] line in
            guard let self, line >= self.rows.lineCount - self.list.nearEndThreshold else { return }
            self.wantsMoreRows = true
        }
        searchField.onSubmit = { [weak self] in self?.submitSearch() }
        // Results as the person types; the interactor waits for a pause.
        searchField.onChange = { [weak self] text in
            guard let self, !self.settingSearchText else { return }
            self.interactor?.search(request: .init(query: text, isTyping: true))
        }
        // Two selectable views on Home: only the focused one shows its selection.
        list.showsSelectionWhenUnfocused = false
    }

    /// Opens the search row and puts the cursor in it.
    func openSearch() {
        searchRow.isHidden = false
        focus(searchField)
    }

    /// Whether the search row is open.
    var isSearching: Bool { !searchRow.isHidden }

    private func submitSearch() {
        interactor?.search(request: .init(query: searchField.text))
        focus(list)
        if searchField.text.isEmpty { searchRow.isHidden = true }
    }

    /// Esc: closes the search row (the whole list again), or else stops a search or page still loading.
    func escape() {
        guard isSearching else {
            interactor?.back(request: .init())
            return
        }
        let hadQuery = !searchField.text.isEmpty
        settingSearchText = true
        searchField.clear()
        settingSearchText = false
        searchRow.isHidden = true
        focus(list)
        if hadQuery { interactor?.search(request: .init(query: "")) }
    }

    // MARK: ListViewDataSource

    func numberOfRows(in listView: ListView) -> Int { rows.lineCount }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        switch rows.line(at: index) {
        case .month(let heading)?: ListRow(heading, style: .title)
        case .transaction(_, let transaction?)?: Self.listRow(rows.format(transaction))
        case .transaction(_, nil)?, nil: Self.listRow(Transactions.UpdateViewModel.Rows.loading)
        }
    }

    /// A transaction's row is kept by the list, by the transaction's id (formatting dates and amounts costs more than
    /// drawing them): a statement line never changes once written, and what changes how every row looks (the blur,
    /// the year) makes the list forget them all. Hashing an id, not the whole transaction, keeps PageDown's new rows
    /// cheap. Headings and rows still loading are not kept.
    func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable? {
        guard case .transaction(let row)? = rows.transactions.line(at: index), let transaction = rows.transactions[row] else {
            return nil
        }
        return AnyHashable(transaction.id)
    }

    /// A month's heading is stepped over: it heads its rows.
    func listView(_ listView: ListView, canSelectRowAt index: Int) -> Bool {
        guard case .month? = rows.transactions.line(at: index) else { return true }
        return false
    }

    private static func listRow(_ row: Transactions.UpdateViewModel.Row) -> ListRow {
        ListRow(row.text, detail: row.amount, detailStyle: row.isIncoming ? .positive : nil)
    }

    /// The transaction on `line` of the list: its index and id.
    private func selectedTransaction(atLine line: Int) -> (index: Int, id: String)? {
        guard case .transaction(let index)? = rows.transactions.line(at: line), let transaction = rows.transactions[index]
        else { return nil }
        return (index, transaction.id)
    }

    /// The line that shows the transaction `id`, looked for outwards from `index` among the rows held, as far as
    /// a few pages; nil when it is not there.
    private func line(showing id: String, near index: Int) -> Int? {
        let window = rows.transactions
        for distance in 0...Self.selectionSearchDistance {
            for candidate in distance == 0 ? [index] : [index + distance, index - distance]
            where window[candidate]?.id == id {
                return window.lineIndex(ofTransaction: candidate)
            }
        }
        return nil
    }

    /// How far from its old place the selected transaction is looked for after the rows changed.
    static let selectionSearchDistance = 4 * TransactionsInteractor.pageSize

    /// After a frame is out: the interactor hears that the list moved (pages let go of, fetched again or asked for),
    /// then the rows a step or a page either way would bring into view are formatted, so the key that scrolls them
    /// in only draws them (decisions 0173, 0174).
    override func didPresentFrame() {
        super.didPresentFrame()
        if let lines = scrolledTo {
            scrolledTo = nil
            interactor?.scroll(request: .init(visibleRows: rows.transactions.transactionRange(ofLines: lines)))
        }
        if wantsMoreRows {
            wantsMoreRows = false
            interactor?.loadMore(request: .init())
        }
        list.prepareRowsAround(screens: 1)
    }

    // MARK: Display

    func displayShowCategory(viewModel: Transactions.ShowCategory.ViewModel) {
        settingSearchText = true
        searchField.text = viewModel.searchText
        settingSearchText = false
        searchRow.isHidden = false
        focus(list)
    }

    func displayUpdate(viewModel: Transactions.UpdateViewModel) {
        panel.title = viewModel.title
        list.emptyText = viewModel.emptyText ?? ""
        if viewModel.rows != rows {
            let selected = list.selectedIndex.flatMap(selectedTransaction(atLine:))
            // Blur changes every row's amount, and the year every date; anything else keeps a transaction's row.
            if viewModel.rows.blurred != rows.blurred || viewModel.rows.currentYear != rows.currentYear {
                list.forgetCachedRows()
            }
            // Pages let go of, fetched again or added away from the screen leave the lines on it as they were.
            let new = viewModel.rows
            let onScreenUnchanged = new.blurred == rows.blurred && new.currentYear == rows.currentYear
                && list.visibleRows.allSatisfy { $0 < new.lineCount && new.line(at: $0) == rows.line(at: $0) }
            rows = viewModel.rows
            if onScreenUnchanged {
                list.reloadRowsOffScreen()
            } else {
                list.reloadData()
            }
            // The selection stays on its transaction when rows arrive above it (money in) or the list is fetched
            // again: it never changes under the person's eyes. On the newest row as money comes it stays on the
            // newest: a selection kept on its row would reach the bottom after a screenful of money in and scroll what
            // comes next out of sight above it, while the balance went on counting it (decision 0206).
            let target = selected.flatMap { selected in
                viewModel.moneyArrivedOnTop && selected.index == 0
                    ? rows.transactions.lineIndex(ofTransaction: 0) : line(showing: selected.id, near: selected.index)
            }
            if let target, target != list.selectedIndex {
                list.select(target)
            }
        }
        // At the end of the list, not on a line of its own: a page fetched ahead arrives without the list moving.
        list.footer = viewModel.isLoadingMore ? "Loading more transactions…" : nil
    }
}

/// Lays its one view out no wider than `maximum`, from the left.
@MainActor
private final class ReadableWidth: View {
    private let content: View
    private let maximum: Int

    init(_ content: View, maximum: Int) {
        self.content = content
        self.maximum = maximum
        super.init()
        addSubview(content)
    }

    override func layoutSubviews() {
        content.frame = Rect(x: 0, y: 0, width: min(bounds.width, maximum), height: bounds.height)
    }
}
