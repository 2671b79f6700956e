import TerminalUI

@MainActor
protocol HomeDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Home.Update.ViewModel)
}

/// Name, balance and unread badge; the cards; the transactions as a paged, searchable list.
@MainActor
final class HomeViewController: SceneViewController, HomeDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any HomeBusinessLogic)?

    private let stack = VStack(spacing: 0)
    private let name = Label("", style: .title)
    private let balance = Label("", style: .title, alignment: .trailing)
    private let unread = Label("", style: .muted, alignment: .trailing)
    private let cards = VStack(spacing: 0)
    private lazy var cardsPanel = Panel(title: "Cards", content: cards)
    private let banner = Banner()
    let transactions = ListView(emptyText: "Loading transactions…")
    private lazy var transactionsPanel = Panel(title: "Transactions", content: transactions)
    private let searchRow = HStack(spacing: 1)
    let searchField = TextField(placeholder: "merchant or category", maxLength: 100)
    private let spinner = Spinner("Loading…")
    private var rows: [Home.Update.ViewModel.TransactionRow] = []
    private var cardRows: [Home.Update.ViewModel.CardRow] = []

    init() {
        super.init(title: "Home")
        keyBindings = [
            bind(.addCard, .character("a"), "add card") { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .addCard))
            },
            bind(.activateCard, .character("v"), "activate card") { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .activateCard))
            },
            KeyBinding(.character("n"), "notifications") { [weak self] in
                self?.interactor?.navigate(request: .init(destination: .notifications))
            },
            KeyBinding(.character("/"), "search") { [weak self] in self?.openSearch() },
            bind(.refresh, .character("r"), "refresh") { [weak self] in self?.interactor?.refresh(request: .init()) },
            KeyBinding(.character("L"), "log out") { [weak self] in self?.interactor?.logout(request: .init()) },
            KeyBinding.described([.enter], "open transaction"),
            KeyBinding(.character("q"), "quit") { [weak self] in self?.application?.quit() },
        ]
    }

    override func viewDidLoad() {
        let header = HStack(spacing: 2)
        header.add(name, size: .fill)
        header.add(unread, size: .fit)
        header.add(balance, size: .fit)
        stack.add(header, size: .fixed(1))
        stack.add(cardsPanel, size: .fit)
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
        transactions.onSelect = { [weak self] index in self?.interactor?.selectTransaction(request: .init(index: index)) }
        transactions.onNearEnd = { [weak self] in self?.interactor?.loadMore(request: .init()) }
        // Asked again on every move near the end, so a page refused once (offline, mid-refresh) is not lost.
        transactions.onSelectionChange = { [weak self] index in
            guard let self, index >= self.rows.count - self.transactions.nearEndThreshold else { return }
            self.interactor?.loadMore(request: .init())
        }
        searchField.onSubmit = { [weak self] in self?.submitSearch() }
        focus(transactions)
        interactor?.load(request: .init())
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
        let row = rows[index]
        return ListRow(row.text, detail: row.amount)
    }

    // MARK: Display

    func displayUpdate(viewModel: Home.Update.ViewModel) {
        name.text = viewModel.name
        balance.text = viewModel.balance
        unread.text = viewModel.unreadBadge ?? ""
        unread.isHidden = viewModel.unreadBadge == nil
        if viewModel.cards != cardRows || cards.items.isEmpty {
            cardRows = viewModel.cards
            for item in cards.items { cards.remove(item.view) }
            if let empty = viewModel.cardsEmptyText { cards.add(Label(sentence(empty), style: .muted)) }
            for card in viewModel.cards {
                let line = HStack(spacing: 2)
                line.add(Label(card.title, style: card.needsActivation ? .title : .text), size: .fixed(20))
                line.add(Label(sentence(card.detail), style: .muted), size: .fill)
                cards.add(line, size: .fixed(1))
            }
        }
        transactionsPanel.title = viewModel.transactionsTitle
        transactions.emptyText = viewModel.emptyText ?? ""
        if viewModel.transactions != rows {
            rows = viewModel.transactions
            transactions.reloadData()
        }
        if let message = viewModel.banner {
            banner.show(sentence(message.content), kind: message.kind == .error ? .error : .info)
        } else {
            banner.clear()
        }
        if viewModel.isBusy || viewModel.isLoadingMore {
            spinner.title = viewModel.isBusy ? "Loading…" : "Loading more transactions…"
            spinner.start()
        } else {
            spinner.stop()
        }
    }
}
