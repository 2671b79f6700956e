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
    /// The list no wider than a row reads well: on a wide terminal the amounts stay near their text.
    private lazy var transactionsPanel = Panel(
        title: "Transactions", content: ReadableWidth(transactions, maximum: Self.readableRowWidth)
    )
    /// The widest the transaction rows get, amount included (a classic terminal's width).
    static let readableRowWidth = 80
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
    private var rows = Home.Update.ViewModel.TransactionRows(
        transactions: TransactionWindow(), blurred: false, currentYear: nil, heading: { _ in "" }
    ) { _ in .init(text: "", amount: "", isIncoming: false) }
    private var cardRows: [Home.Update.ViewModel.CardRow] = []
    /// Whether a card can be activated now: only then does `v` show in the status bar and the help.
    private var canActivateCard = false
    /// Set while the scene itself puts text in the search row (a category picked), which is no typing to search.
    private var settingSearchText = false
    /// The rows on screen after the list moved, and whether it neared its end: told to the interactor after the frame.
    private var scrolledTo: Range<Int>?
    private var wantsMoreRows = false

    init(keys: WalletKeys = .standard) {
        super.init(title: "Home", keys: keys)
        keyBindings = makeKeyBindings()
    }

    /// Home's keys, in the order the status bar shows them: moving money first. At 100 columns it fits them all
    /// with `v` (only while a card can be activated); search is named by the transactions' title, and showing or
    /// hiding spending by `?`.
    private func makeKeyBindings() -> [KeyBinding] {
        [
            bind(.sendMoney, "send") { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .sendMoney))
            },
            bind(.topUp) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .topUp))
            },
            bind(.openCards) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .cards))
            },
            // Always answered (a frozen card says how to unfreeze it), but shown only while a card can be activated.
            bind(.activateCard, "activate", showsInStatusBar: canActivateCard) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .activateCard))
            },
            bind(.addCard) { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .addCard))
            },
            bind(.openNotifications, "inbox") { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .notifications))
            },
            bind(.search, showsInStatusBar: false) { [weak self] in self?.openSearch() },
            bind(.refresh) { [weak self] in self?.interactor?.refresh(request: .init()) },
            bind(.toggleSpending, showsInStatusBar: false) { [weak self] in
                self?.interactor?.toggleSpending(request: .init())
            },
            bind(.logout) { [weak self] in self?.interactor?.logout(request: .init()) },
            bind(.quit) { [weak self] in self?.application?.quit() },
        ]
    }

    /// `?` lists activation only while a card can be activated, as the status bar does.
    override var helpBindings: [KeyBinding] {
        let activate = keys.keys(for: .activateCard)
        return super.helpBindings.filter { canActivateCard || $0.keys != activate }
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
        transactions.onSelect = { [weak self] line in
            guard let self, case .transaction(let index)? = self.rows.transactions.line(at: line) else { return }
            self.interactor?.selectTransaction(request: .init(index: index))
        }
        // Pages are asked for and let go of after the frame that moved the list (`didPresentFrame`): the key's frame
        // does not wait for them.
        transactions.onNearEnd = { [weak self] in self?.wantsMoreRows = true }
        transactions.onVisibleRowsChange = { [weak self] rows in self?.scrolledTo = rows }
        // Asked again on every move near the end, so a page refused once (offline, mid-refresh) is not lost.
        transactions.onSelectionChange = { [weak self] line in
            guard let self, line >= self.rows.lineCount - self.transactions.nearEndThreshold else { return }
            self.wantsMoreRows = true
        }
        searchField.onSubmit = { [weak self] in self?.submitSearch() }
        // Results as the person types; the interactor waits for a pause.
        searchField.onChange = { [weak self] text in
            guard let self, !self.settingSearchText else { return }
            self.interactor?.search(request: .init(query: text, isTyping: true))
        }
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
        settingSearchText = true
        searchField.clear()
        settingSearchText = false
        searchRow.isHidden = true
        focus(transactions)
        if hadQuery { interactor?.search(request: .init(query: "")) }
    }

    // MARK: ListViewDataSource

    func numberOfRows(in listView: ListView) -> Int { rows.lineCount }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        if let row = shownByIndex[index] { return row }
        let row: ListRow
        switch rows.line(at: index) {
        case .month(let heading)?:
            row = ListRow(heading, style: .title)
        case .transaction(_, let transaction?)?:
            if let shown = shownRows[transaction.id], shown.transaction == transaction {
                row = shown.row
            } else {
                // Formatted once rather than once per frame (dates and amounts cost more than drawing them); the rows
                // on screen and two screens either side are kept when there are more than a few screens' worth.
                row = Self.listRow(rows.format(transaction))
                if shownRows.count >= Self.shownRowLimit {
                    let around = rowsAround(transactions.visibleRows, screens: 2)
                    let kept = Set(around.compactMap { line -> String? in
                        guard case .transaction(let index)? = rows.transactions.line(at: line) else { return nil }
                        return rows.transactions[index]?.id
                    })
                    shownRows = shownRows.filter { kept.contains($0.key) }
                    shownByIndex = shownByIndex.filter { around.contains($0.key) }
                }
                shownRows[transaction.id] = (transaction, row)
            }
        case .transaction(_, nil)?, nil:
            return Self.listRow(Home.Update.ViewModel.TransactionRows.loading)
        }
        shownByIndex[index] = row
        return row
    }

    /// A month's heading is stepped over: it heads its rows.
    func listView(_ listView: ListView, canSelectRowAt index: Int) -> Bool {
        guard case .month? = rows.transactions.line(at: index) else { return true }
        return false
    }

    private static func listRow(_ row: Home.Update.ViewModel.TransactionRow) -> ListRow {
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
    static let selectionSearchDistance = 4 * HomeInteractor.pageSize

    /// How many formatted rows `shownRows` holds before it lets go of those far from the screen.
    static let shownRowLimit = 200

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
        guard !transactions.isHidden else { return }
        for index in rowsAround(transactions.visibleRows, screens: 1) {
            _ = listView(transactions, rowAt: index)
        }
    }

    /// `visible` widened by `screens` screens of rows on each side, within the rows there are.
    private func rowsAround(_ visible: Range<Int>, screens: Int) -> Range<Int> {
        let page = transactions.visibleRowCount * screens
        return max(0, visible.lowerBound - page)..<min(rows.lineCount, visible.upperBound + page)
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
        settingSearchText = true
        searchField.text = viewModel.searchText
        settingSearchText = false
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
        if viewModel.canActivateCard != canActivateCard {
            canActivateCard = viewModel.canActivateCard
            keyBindings = makeKeyBindings()
        }
        if viewModel.cards != cardRows || cards.items.isEmpty {
            cardRows = viewModel.cards
            for item in cards.items { cards.remove(item.view) }
            if let empty = viewModel.cardsEmptyText { cards.add(Label(sentence(empty), style: .muted)) }
            // As wide as the widest title ("American Express •••• 0005" needs 26), so no brand is cut and the details
            // line up; never narrower than 20.
            let titleWidth = viewModel.cards.map { DisplayWidth.of($0.title) }.reduce(20, max)
            for card in viewModel.cards {
                let line = CardLine(
                    title: card.title, summary: card.summary, status: sentence(card.status), statusWord: card.status.text,
                    titleColumn: titleWidth, highlighted: card.needsActivation
                )
                cards.add(line, size: .fixed(1))
            }
        }
        transactionsPanel.title = viewModel.transactionsTitle
        transactions.emptyText = viewModel.emptyText ?? ""
        if viewModel.transactions != rows {
            let selected = transactions.selectedIndex.flatMap(selectedTransaction(atLine:))
            // Blur changes every row's amount; anything else keeps a transaction's row as it was.
            if viewModel.transactions.blurred != rows.blurred || viewModel.transactions.currentYear != rows.currentYear {
                shownRows.removeAll(keepingCapacity: true)
            }
            // Pages let go of, fetched again or added away from the screen leave the lines on it as they were.
            let new = viewModel.transactions
            let onScreenUnchanged = new.blurred == rows.blurred && new.currentYear == rows.currentYear
                && transactions.visibleRows.allSatisfy { $0 < new.lineCount && new.line(at: $0) == rows.line(at: $0) }
            rows = viewModel.transactions
            shownByIndex.removeAll(keepingCapacity: true)
            if onScreenUnchanged {
                transactions.reloadRowsOffScreen()
            } else {
                transactions.reloadData()
            }
            // The selection stays on its transaction when rows arrive above it (money in) or the list is fetched
            // again: it never changes under the person's eyes.
            if let selected, let line = line(showing: selected.id, near: selected.index), line != transactions.selectedIndex {
                transactions.select(line)
            }
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
