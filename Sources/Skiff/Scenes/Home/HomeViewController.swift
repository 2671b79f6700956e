import SkiffCore
import TerminalUI

@MainActor
protocol HomeDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Home.UpdateViewModel)
}

/// Hosts Home's parts, each a scene of its own (the balance header, the cards, spending, the transactions), with
/// one banner and one spinner under them; binds the keys that work wherever the focus is.
@MainActor
final class HomeViewController: SceneViewController, HomeDisplayLogic, SceneDisplay {
    var interactor: (any HomeBusinessLogic)?

    let balance: BalanceViewController
    let cards: CardsPanelViewController
    let spending: SpendingViewController
    let transactions: TransactionsViewController
    private let stack = LayoutReportingVStack()
    private let banner = Banner()
    private let spinner = Spinner("Loading…")
    /// The rows the transactions keep, as last set.
    private var transactionsMinimum = 0
    /// Whether a card can be activated now: only then does `v` show in the status bar and the help.
    private var canActivateCard = false

    init(
        balance: BalanceViewController, cards: CardsPanelViewController, spending: SpendingViewController,
        transactions: TransactionsViewController, keys: WalletKeys = .standard
    ) {
        self.balance = balance
        self.cards = cards
        self.spending = spending
        self.transactions = transactions
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
            bind(.search, showsInStatusBar: false) { [weak self] in self?.transactions.openSearch() },
            bind(.refresh) { [weak self] in self?.interactor?.refresh(request: .init()) },
            bind(.toggleSpending, showsInStatusBar: false) { [weak self] in self?.spending.toggle() },
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
        for part in [balance, cards, spending, transactions] as [ViewController] { addChild(part) }
        stack.add(balance.view, size: .fixed(1))
        stack.add(cards.view, size: .fit)
        stack.add(spending.view, size: .fit)
        stack.onLayout = { [weak self] size in self?.layingOut(in: size) }
        stack.add(banner)
        stack.add(transactions.view, size: .fill)
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        focus(transactions.list)
        interactor?.load(request: .init())
    }

    /// Before each layout: Spending folds away on a small terminal; however many cards there are, the transactions
    /// keep three rows (and their border), and the search row under them while it is open.
    private func layingOut(in size: Size) {
        spending.fold(in: size)
        let minimum = transactions.isSearching ? 6 : 5
        guard minimum != transactionsMinimum else { return }
        transactionsMinimum = minimum
        stack.setMinimum(minimum, for: transactions.view)
    }

    override func handle(_ key: Key) -> Bool {
        // A notice ("Visa •••• 4242 added.") has been read once a key is pressed; the key still does what it does.
        interactor?.dismissNotice(request: .init())
        return super.handle(key)
    }

    /// Esc closes the search row first; else it stops what is still loading.
    override func escapePressed() {
        if transactions.isSearching {
            transactions.escape()
        } else {
            interactor?.back(request: .init())
        }
    }

    // MARK: Display

    func displayUpdate(viewModel: Home.UpdateViewModel) {
        if viewModel.canActivateCard != canActivateCard {
            canActivateCard = viewModel.canActivateCard
            keyBindings = makeKeyBindings()
        }
        showStatus(viewModel.banner, in: banner, busy: viewModel.isBusy ? "Loading…" : nil, spinner: spinner)
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
