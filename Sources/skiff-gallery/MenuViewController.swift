import Foundation
import TerminalUI

/// The gallery's first screen: a list of demos; Enter pushes one.
@MainActor
final class MenuViewController: ViewController, ListViewDataSource {
    private let entries: [(title: String, summary: String, make: @MainActor () -> ViewController)] = [
        ("Labels", "truncate, wrap, alignment, wide text", { LabelsViewController() }),
        ("Text fields", "editing keys, filter, grouping, max length", { TextFieldsViewController() }),
        ("Secure field", "bullets, wipe on clear", { SecureFieldViewController() }),
        ("Buttons", "focus and press", { ButtonsViewController() }),
        ("List", "100 000 virtualised rows, paging", { ListDemoViewController() }),
        ("Panels and stacks", "fixed and flexible sizes", { StacksViewController() }),
        ("Form", "labels, fields, inline errors", { FormViewController() }),
        ("Alert", "modal with buttons", { AlertDemoViewController() }),
        ("Spinner and banner", "async work, info and error", { SpinnerViewController() }),
        ("Bar chart", "a simple series", { ChartViewController() }),
        ("Navigation", "lifecycle log, push, pop to root", { NavigationDemoViewController(depth: 1) }),
        ("Mouse", "click, drag, wheel, as decoded", { MouseDemoViewController() }),
        ("Containment", "child controllers: one focus, keys of their own", { ContainmentDemoViewController() }),
    ]
    private let list = ListView()
    private let allowsTrap: Bool

    init(allowsTrap: Bool) {
        self.allowsTrap = allowsTrap
        super.init(title: "Gallery")
    }

    override func viewDidLoad() {
        let intro = Label("Every TerminalUI view on its own screen. Enter opens one, Esc comes back.", style: .muted, overflow: .wrap)
        let stack = VStack(spacing: 1)
        stack.add(intro, size: .fit)
        stack.add(Panel(title: "Views", content: list), size: .fill)
        embed(stack)
        list.dataSource = self
        list.onSelect = { [weak self] index in self?.open(index) }
        keyBindings = [KeyBinding(.enter, "open", action: { [weak self] in self?.open(self?.list.selectedIndex ?? 0) })]
        if allowsTrap {
            keyBindings.append(KeyBinding(.character("!"), "trap", showsInStatusBar: false) {
                let values: [Int] = []
                _ = values[Int(getpid())]
            })
        }
    }

    private func open(_ index: Int) {
        guard entries.indices.contains(index) else { return }
        navigationController?.push(entries[index].make())
    }

    func numberOfRows(in listView: ListView) -> Int {
        entries.count
    }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        ListRow(entries[index].title, detail: entries[index].summary)
    }
}

extension ViewController {
    /// Puts a view in the screen, inset a little from the edges.
    func embed(_ content: View) {
        (view as? ContainerView)?.insets = EdgeInsets(top: 1, left: 2, bottom: 0, right: 2)
        view.addSubview(content)
    }
}
