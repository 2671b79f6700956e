import TerminalUI

@MainActor
protocol NotificationsDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Notifications.Update.ViewModel)
}

/// The notifications, newest first; Enter opens the selected one in full (marking it read), Esc comes back to
/// the list.
@MainActor
final class NotificationsViewController: SceneViewController, NotificationsDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any NotificationsBusinessLogic)?

    private let stack = VStack(spacing: 0)
    private let summary = Label("", style: .muted)
    let list = ListView(emptyText: "Loading notifications…")
    private lazy var inbox = Panel(title: "Inbox", content: list)
    private let body = Label("", overflow: .wrap)
    private lazy var preview = Panel(title: "Message", content: body)
    private let openedTitle = Label("", style: .title)
    private let openedDate = Label("", style: .muted)
    private let openedBody = Label("", overflow: .wrap)
    private let opened = VStack(spacing: 1)
    private lazy var openedPanel = Panel(title: nil, content: opened)
    private let banner = Banner()
    private let spinner = Spinner("Loading…")
    private var rows: [Notifications.Update.ViewModel.Row] = []
    private var isOpen = false

    init(keys: WalletKeys = .standard) {
        super.init(title: "Notifications", keys: keys)
        showListKeys()
    }

    override func viewDidLoad() {
        opened.add(openedTitle, size: .fixed(1))
        opened.add(openedDate, size: .fixed(1))
        opened.add(openedBody, size: .fill)
        openedPanel.isHidden = true
        stack.add(summary, size: .fixed(1))
        stack.add(banner)
        stack.add(inbox, size: .fill)
        stack.add(preview, size: .fixed(5))
        stack.add(openedPanel, size: .fill)
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        list.dataSource = self
        list.openHelp = "open"
        list.onSelect = { [weak self] index in self?.interactor?.open(request: .init(index: index)) }
        list.onSelectionChange = { [weak self] index in self?.showBody(index) }
        focus(list)
        interactor?.load(request: .init())
    }

    /// The list's keys: Enter opens (the list handles it), and the whole list's own.
    private func showListKeys() {
        keyBindings = [
            describe(.markRead, "open", showsInStatusBar: true),
            bind(.markAllRead) { [weak self] in self?.interactor?.markAllRead(request: .init()) },
            bind(.refresh, "reload") { [weak self] in self?.interactor?.load(request: .init()) },
        ]
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
        showOpened(viewModel.opened)
        if let message = viewModel.banner { banner.show(sentence(message.content), kind: .error) } else { banner.clear() }
        if viewModel.isBusy { spinner.start() } else { spinner.stop() }
    }

    /// The open notification in place of the list, or the list again; the keys follow what shows.
    private func showOpened(_ item: Notifications.Update.ViewModel.Opened?) {
        if let item {
            openedTitle.text = item.title
            openedDate.text = item.date
            openedBody.text = item.body
        }
        let open = item != nil
        guard open != isOpen else { return }
        isOpen = open
        inbox.isHidden = open
        preview.isHidden = open
        openedPanel.isHidden = !open
        if open {
            keyBindings = []
        } else {
            showListKeys()
            focus(list)
        }
    }
}
