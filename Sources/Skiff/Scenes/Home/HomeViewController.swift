import SkiffCore
import TerminalUI

@MainActor
protocol HomeDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Home.Update.ViewModel)
    func displayLoadSpending(viewModel: Home.LoadSpending.ViewModel)
    func displaySelectCategory(viewModel: Home.SelectCategory.ViewModel)
}

/// Name, balance and unread badge; the cards; this month's spending by category; the transactions as a paged,
/// searchable list.
@MainActor
final class HomeViewController: SceneViewController, HomeDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any HomeBusinessLogic)?

    private let stack = LayoutReportingVStack()
    private let name = Label("", style: .title)
    private let balance = Label("", style: .title, alignment: .trailing)
    private let unread = Label("", style: .muted, alignment: .trailing)
    private let connection = Label("", style: .errorText, alignment: .trailing)
    private let cards = VStack(spacing: 0)
    private lazy var cardsPanel = Panel(title: "Cards · \(keys.label(for: .openCards)) to manage", content: cards)
    private let banner = Banner()
    let transactions = ListView(emptyText: "Loading transactions…")
    private lazy var transactionsPanel = Panel(title: "Transactions", content: transactions)
    private let searchRow = HStack(spacing: 1)
    let searchField = TextField(placeholder: "merchant, category, note or reference", maxLength: 100)
    private let spinner = Spinner("Loading…")
    let spendingChart = BarChart()
    private let spendingSummary = Label("", style: .muted)
    private let spendingContent = VStack(spacing: 0)
    private lazy var spendingPanel = Panel(title: "Spending", content: spendingContent)
    /// Whether the person wants the Spending panel; it still folds away on a terminal smaller than this.
    private var showsSpending = false
    static let spendingMinimumSize = Size(width: 40, height: 24)
    /// `rows` as the list draws them, by transaction id with the transaction each was made from, for the current
    /// blur: kept when pages are let go or arrive and when rows arrive above, which move indexes, not rows.
    private var shownRows: [String: (transaction: Transaction, row: ListRow)] = [:]
    /// The same rows by index in `rows`, so a frame finds its rows without copying transactions or hashing ids;
    /// emptied whenever `rows` changes, and filled again from `shownRows`.
    private var shownByIndex: [Int: ListRow] = [:]
    private var rows = Home.Update.ViewModel.TransactionRows(transactions: TransactionWindow(), blurred: false) { _ in
        .init(text: "", amount: "", isIncoming: false)
    }
    private var cardRows: [Home.Update.ViewModel.CardRow] = []
    /// The rows on screen after the list moved, and whether it neared its end: told to the interactor after the frame.
    private var scrolledTo: Range<Int>?
    private var wantsMoreRows = false

    init(keys: WalletKeys = .standard) {
        super.init(title: "Home", keys: keys)
        keyBindings = [
            bind(.addCard) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .addCard))
            },
            bind(.activateCard) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .activateCard))
            },
            // Named in the cards panel's title instead of the status bar, which has no room left for it at 100 columns.
            bind(.openCards, showsInStatusBar: false) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .cards))
            },
            bind(.openNotifications) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .notifications))
            },
            // Kept off the status bar, which would otherwise drop `q quit` at 100 columns; the transactions panel's
            // title names them (`HomePresenter`), and `?` and README list them.
            bind(.sendMoney, showsInStatusBar: false) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .sendMoney))
            },
            bind(.topUp, showsInStatusBar: false) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .topUp))
            },
            bind(.search) { [weak self] in self?.openSearch() },
            bind(.refresh) { [weak self] in self?.interactor?.refresh(request: .init()) },
            // Kept off the status bar, which is full at 100 columns; `?` lists it.
            bind(.toggleSpending, showsInStatusBar: false) { [weak self] in
                self?.interactor?.toggleSpending(request: .init())
            },
            bind(.logout) { [weak self] in self?.interactor?.logout(request: .init()) },
            bind(.quit) { [weak self] in self?.application?.quit() },
        ]
    }

    override func viewDidLoad() {
        let header = HStack(spacing: 2)
        header.add(name, size: .fill)
        connection.isHidden = true
        header.add(connection, size: .fit)
        header.add(unread, size: .fit)
        header.add(balance, size: .fit)
        stack.add(header, size: .fixed(1))
        stack.add(cardsPanel, size: .fit)
        spendingContent.add(spendingSummary, size: .fixed(1))
        spendingContent.add(spendingChart, size: .fill)
        spendingPanel.isHidden = true
        stack.add(spendingPanel, size: .fit)
        stack.onLayout = { [weak self] size in self?.foldSpending(in: size) }
        stack.add(banner)
        stack.add(transactionsPanel, size: .fill)
        // However many cards there are, the transactions keep three rows (and their border).
        stack.setMinimum(5, for: transactionsPanel)
        searchRow.add(Label("Search:", style: .muted))
        searchRow.add(searchField, size: .fill)
        searchRow.isHidden = true
        stack.add(searchRow, size: .fixed(1))
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)

        transactions.dataSource = self
        // The next page is asked for two screens ahead, so PageDown never reaches the last row loaded while it comes.
        transactions.nearEndThreshold = 30
        transactions.openHelp = "open transaction"
        transactions.onSelect = { [weak self] index in self?.interactor?.selectTransaction(request: .init(index: index)) }
        // Pages are asked for and let go of after the frame that moved the list (`didPresentFrame`): the key's frame
        // does not wait for them.
        transactions.onNearEnd = { [weak self] in self?.wantsMoreRows = true }
        transactions.onVisibleRowsChange = { [weak self] rows in self?.scrolledTo = rows }
        // Asked again on every move near the end, so a page refused once (offline, mid-refresh) is not lost.
        transactions.onSelectionChange = { [weak self] index in
            guard let self, index >= self.rows.count - self.transactions.nearEndThreshold else { return }
            self.wantsMoreRows = true
        }
        searchField.onSubmit = { [weak self] in self?.submitSearch() }
        spendingChart.onSelect = { [weak self] index in self?.interactor?.selectCategory(request: .init(index: index)) }
        // Two selectable views on one screen: only the focused one shows its selection.
        transactions.showsSelectionWhenUnfocused = false
        spendingChart.showsSelectionWhenUnfocused = false
        focus(transactions)
        interactor?.load(request: .init())
        interactor?.loadSpending(request: .init())
    }

    /// Shows the Spending panel only while it is wanted and the terminal has room for it beside the list.
    private func foldSpending(in size: Size) {
        let fits = size.width >= Self.spendingMinimumSize.width && size.height >= Self.spendingMinimumSize.height
        let hidden = !(showsSpending && fits)
        guard spendingPanel.isHidden != hidden else { return }
        spendingPanel.isHidden = hidden
        if hidden && spendingChart.isFocused { focus(transactions) }
    }

    private func openSearch() {
        searchRow.isHidden = false
        focus(searchField)
    }

    private func submitSearch() {
        interactor?.search(request: .init(query: searchField.text))
        focus(transactions)
        if searchField.text.isEmpty { searchRow.isHidden = true }
    }

    override func handle(_ key: Key) -> Bool {
        // A notice ("Visa •••• 4242 added.") has been read once a key is pressed; the key still does what it does.
        interactor?.dismissNotice(request: .init())
        return super.handle(key)
    }

    override func escapePressed() {
        if searchRow.isHidden {
            interactor?.back(request: .init())
        } else {
            closeSearch()
        }
    }

    private func closeSearch() {
        guard !searchRow.isHidden else { return }
        let hadQuery = !searchField.text.isEmpty
        searchField.clear()
        searchRow.isHidden = true
        focus(transactions)
        if hadQuery { interactor?.search(request: .init(query: "")) }
    }

    // MARK: ListViewDataSource

    func numberOfRows(in listView: ListView) -> Int { rows.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        if let row = shownByIndex[index] { return row }
        guard let transaction = rows.transactions[index] else {
            return Self.listRow(Home.Update.ViewModel.TransactionRows.loading)
        }
        let row: ListRow
        if let shown = shownRows[transaction.id], shown.transaction == transaction {
            row = shown.row
        } else {
            // Formatted once rather than once per frame (dates and amounts cost more than drawing them); the rows on
            // screen and two screens either side are kept when there are more than a few screens' worth.
            row = Self.listRow(rows.format(transaction))
            if shownRows.count >= Self.shownRowLimit {
                let around = rowsAround(transactions.visibleRows, screens: 2)
                let kept = Set(around.compactMap { rows.transactions[$0]?.id })
                shownRows = shownRows.filter { kept.contains($0.key) }
                shownByIndex = shownByIndex.filter { around.contains($0.key) }
            }
            shownRows[transaction.id] = (transaction, row)
        }
        shownByIndex[index] = row
        return row
    }

    private static func listRow(_ row: Home.Update.ViewModel.TransactionRow) -> ListRow {
        ListRow(row.text, detail: row.amount, detailStyle: row.isIncoming ? .positive : nil)
    }

    /// How many formatted rows `shownRows` holds before it lets go of those far from the screen.
    static let shownRowLimit = 200

    /// After a frame is out: the interactor hears that the list moved (pages let go of, fetched again or asked for),
    /// then the rows a step or a page either way would bring into view are formatted, so the key that scrolls them
    /// in only draws them (decisions 0173, 0174).
    override func didPresentFrame() {
        super.didPresentFrame()
        if let rows = scrolledTo {
            scrolledTo = nil
            interactor?.scroll(request: .init(visibleRows: rows))
        }
        if wantsMoreRows {
            wantsMoreRows = false
            interactor?.loadMore(request: .init())
        }
        guard !transactions.isHidden else { return }
        for index in rowsAround(transactions.visibleRows, screens: 1) {
            _ = listView(transactions, rowAt: index)
        }
    }

    /// `visible` widened by `screens` screens of rows on each side, within the rows there are.
    private func rowsAround(_ visible: Range<Int>, screens: Int) -> Range<Int> {
        let page = transactions.visibleRowCount * screens
        return max(0, visible.lowerBound - page)..<min(rows.count, visible.upperBound + page)
    }

    // MARK: Display

    func displayLoadSpending(viewModel: Home.LoadSpending.ViewModel) {
        showsSpending = viewModel.isShown
        spendingPanel.title = viewModel.title
        spendingSummary.text = viewModel.emptyText ?? viewModel.summary
        spendingChart.entries = viewModel.bars.map { .init($0.category, $0.value, valueText: $0.amount) }
        spendingContent.setSize(.fixed(viewModel.bars.count), for: spendingChart)
        foldSpending(in: view.frame.size)
        setNeedsDisplay()
    }

    func displaySelectCategory(viewModel: Home.SelectCategory.ViewModel) {
        searchField.text = viewModel.searchText
        searchRow.isHidden = false
        focus(transactions)
    }

    func displayUpdate(viewModel: Home.Update.ViewModel) {
        name.text = viewModel.name
        balance.text = viewModel.balance
        unread.text = viewModel.unreadBadge ?? ""
        unread.isHidden = viewModel.unreadBadge == nil
        connection.text = viewModel.connection ?? ""
        connection.isHidden = viewModel.connection == nil
        if viewModel.cards != cardRows || cards.items.isEmpty {
            cardRows = viewModel.cards
            for item in cards.items { cards.remove(item.view) }
            if let empty = viewModel.cardsEmptyText { cards.add(Label(sentence(empty), style: .muted)) }
            // As wide as the widest title ("American Express •••• 0005" needs 26), so no brand is cut and the details
            // line up; never narrower than 20.
            let titleWidth = viewModel.cards.map { DisplayWidth.of($0.title) }.reduce(20, max)
            for card in viewModel.cards {
                let line = HStack(spacing: 2)
                line.add(Label(card.title, style: card.needsActivation ? .title : .text), size: .fixed(titleWidth))
                line.add(Label(sentence(card.detail), style: .muted), size: .fill)
                cards.add(line, size: .fixed(1))
            }
        }
        transactionsPanel.title = viewModel.transactionsTitle
        transactions.emptyText = viewModel.emptyText ?? ""
        if viewModel.transactions != rows {
            let selected = transactions.selectedIndex
            // Blur changes every row's amount; anything else keeps a transaction's row as it was.
            if viewModel.transactions.blurred != rows.blurred { shownRows.removeAll(keepingCapacity: true) }
            // Pages let go of, fetched again or added away from the screen leave the rows on it as they were.
            let new = viewModel.transactions
            let onScreenUnchanged = viewModel.rowsAddedAtTop == 0 && new.blurred == rows.blurred
                && transactions.visibleRows.allSatisfy { $0 < new.count && new.transactions[$0] == rows.transactions[$0] }
            rows = viewModel.transactions
            shownByIndex.removeAll(keepingCapacity: true)
            if onScreenUnchanged {
                transactions.reloadRowsOffScreen()
            } else {
                transactions.reloadData()
            }
            // Rows that arrived above the selection push it down with its transaction: it never changes under the
            // person's eyes.
            if let selected, viewModel.rowsAddedAtTop > 0 { transactions.select(selected + viewModel.rowsAddedAtTop) }
        }
        if let message = viewModel.banner {
            banner.show(sentence(message.content), kind: message.kind == .error ? .error : .info)
        } else {
            banner.clear()
        }
        if viewModel.isBusy {
            spinner.start()
        } else {
            spinner.stop()
        }
        // At the end of the list, not on a line of its own: a page fetched ahead arrives without the list moving.
        transactions.footer = viewModel.isLoadingMore ? "Loading more transactions…" : nil
    }
}

/// A vertical stack that reports its size before laying out, so the scene can fold a panel on a small terminal.
@MainActor
private final class LayoutReportingVStack: VStack {
    var onLayout: ((Size) -> Void)?

    init() { super.init(spacing: 0) }

    override func layoutSubviews() {
        onLayout?(frame.size)
        super.layoutSubviews()
    }
}
