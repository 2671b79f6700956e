import TerminalUI

@MainActor
protocol CardsDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Cards.Update.ViewModel)
    func displayRemove(viewModel: Cards.Remove.ViewModel)
}

/// Every card on the account; Enter opens one; the key map's keys freeze or unfreeze it, activate the issued card,
/// remove an added card, or add one.
@MainActor
final class CardsViewController: SceneViewController, CardsDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any CardsBusinessLogic)?

    private let stack = VStack(spacing: 0)
    let list = ListView(emptyText: "Loading cards…")
    private let banner = Banner()
    private let spinner = Spinner("Loading…")
    private var rows: [Cards.Update.ViewModel.Row] = []

    init(keys: WalletKeys = .standard) {
        super.init(title: "Cards", keys: keys)
    }

    override func viewDidLoad() {
        stack.add(banner)
        stack.add(Panel(title: "Cards", content: list), size: .fill)
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        list.dataSource = self
        list.openHelp = "card details"
        list.onSelect = { [weak self] index in self?.interactor?.showDetail(request: .init(index: index)) }
        list.onSelectionChange = { [weak self] _ in self?.updateKeys() }
        focus(list)
        updateKeys()
        interactor?.load(request: .init())
    }

    /// The keys for the selected card: freezing words what it would do, activating is offered only for a card that
    /// can be activated, and removing only for an added card; adding a card is always offered.
    private func updateKeys() {
        var bindings: [KeyBinding] = []
        if let index = list.selectedIndex, rows.indices.contains(index) {
            let row = rows[index]
            bindings.append(bind(.freezeCard, row.freezeHelp) { [weak self] in self?.onSelectedRow { $0.freeze(request: $1) } })
            if row.canActivate {
                bindings.append(bind(.activateCard) { [weak self] in self?.onSelectedRow { $0.activate(request: $1) } })
            }
            if row.canRemove {
                bindings.append(bind(.removeCard) { [weak self] in self?.onSelectedRow { $0.remove(request: $1) } })
            }
        }
        bindings.append(bind(.addCard) { [weak self] in self?.interactor?.add(request: .init()) })
        keyBindings = bindings
    }

    /// Sends a request about the selected row, if a row is selected.
    private func onSelectedRow(_ send: (any CardsBusinessLogic, RowRequest) -> Void) {
        guard let interactor, let index = list.selectedIndex else { return }
        send(interactor, RowRequest(index: index))
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    // MARK: ListViewDataSource

    func numberOfRows(in listView: ListView) -> Int { rows.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        let row = rows[index]
        return ListRow(row.title, detail: row.detail, style: row.isFrozen ? .muted : .text)
    }

    // MARK: Display

    func displayUpdate(viewModel: Cards.Update.ViewModel) {
        list.emptyText = viewModel.emptyText ?? ""
        if viewModel.rows != rows {
            rows = viewModel.rows
            list.reloadData()
        }
        updateKeys()
        showStatus(viewModel.banner, in: banner, busy: viewModel.busyText, spinner: spinner)
    }

    func displayRemove(viewModel: Cards.Remove.ViewModel) {
        navigationController?.present(viewModel.alert { [weak self] cardID in
            self?.interactor?.confirmRemove(request: .init(cardID: cardID))
        })
    }
}

extension Cards.Remove.ViewModel {
    /// The question before a card goes (Cards and Card detail ask it alike): `confirm` gets the card's id.
    @MainActor
    func alert(confirm: @escaping @MainActor (String) -> Void) -> AlertController {
        let cardID = cardID
        return AlertController(title: title, message: message, actions: [
            AlertAction(self.confirm) { confirm(cardID) },
            AlertAction(cancel, isCancel: true),
        ])
    }
}
