import TerminalUI

@MainActor
protocol NotificationsDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Notifications.Update.ViewModel)
}

/// The notifications, newest first; Enter marks the selected one read.
@MainActor
final class NotificationsViewController: SceneViewController, NotificationsDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any NotificationsBusinessLogic)?

    private let stack = VStack(spacing: 0)
    private let summary = Label("", style: .muted)
    let list = ListView(emptyText: "Loading notifications…")
    private let body = Label("", overflow: .wrap)
    private let banner = Banner()
    private let spinner = Spinner("Loading…")
    private var rows: [Notifications.Update.ViewModel.Row] = []

    init(keys: WalletKeys = .standard) {
        super.init(title: "Notifications", keys: keys)
        keyBindings = [
            describe(.markRead, showsInStatusBar: true),
            bind(.markAllRead) { [weak self] in self?.interactor?.markAllRead(request: .init()) },
            bind(.refresh, "reload") { [weak self] in self?.interactor?.load(request: .init()) },
        ]
    }

    override func viewDidLoad() {
        stack.add(summary, size: .fixed(1))
        stack.add(banner)
        stack.add(Panel(title: "Inbox", content: list), size: .fill)
        stack.add(Panel(title: "Message", content: body), size: .fixed(5))
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        list.dataSource = self
        list.onSelect = { [weak self] index in self?.interactor?.markRead(request: .init(index: index)) }
        list.onSelectionChange = { [weak self] index in self?.showBody(index) }
        focus(list)
        interactor?.load(request: .init())
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    private func showBody(_ index: Int) {
        body.text = rows.indices.contains(index) ? rows[index].body : ""
    }

    func numberOfRows(in listView: ListView) -> Int { rows.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        let row = rows[index]
        return ListRow(row.title, detail: row.date, style: row.isUnread ? .title : .text)
    }

    func displayUpdate(viewModel: Notifications.Update.ViewModel) {
        summary.text = viewModel.summary
        list.emptyText = viewModel.emptyText ?? ""
        rows = viewModel.rows
        list.reloadData()
        showBody(list.selectedIndex ?? 0)
        if let message = viewModel.banner { banner.show(sentence(message.content), kind: .error) } else { banner.clear() }
        if viewModel.isBusy { spinner.start() } else { spinner.stop() }
    }
}
