import TerminalUI

/// A message of the Containment demo's inbox.
struct DemoMessage: Hashable {
    let id: Int
    let sender: String
    let subject: String
    var isUnread: Bool
    var isStarred: Bool

    /// 500 messages from a few senders.
    static func inbox() -> [DemoMessage] {
        let senders = ["Ana R.", "Bea K.", "Chen L.", "Dara O.", "Eli S."]
        let subjects = ["Lunch on Friday?", "Rent for March", "Concert tickets", "Your parcel", "Board game night"]
        return (0..<500).map {
            DemoMessage(
                id: $0, sender: senders[$0 % senders.count], subject: "\(subjects[$0 % subjects.count]) #\($0 + 1)",
                isUnread: $0 % 3 == 0, isStarred: false)
        }
    }
}

/// Child controllers in regions of one screen: an inbox list and the selected message side by side, each a
/// controller with its own keys, and the screen's own key that works wherever the focus is. Tab moves the one focus
/// between them; `?` and the status bar show the screen's keys and those of the child holding the focus.
@MainActor
final class ContainmentDemoViewController: ViewController {
    private var messages = DemoMessage.inbox()
    private let inbox = InboxViewController()
    private let reader = ReaderViewController()

    init() { super.init(title: "Containment") }

    override func viewDidLoad() {
        let intro = Label(
            "Two child controllers, one focus: Tab moves between them. u works in the inbox, s on the message, r everywhere.",
            style: .muted, overflow: .wrap)
        let panes = HStack(spacing: 1)
        addChild(inbox)
        panes.add(inbox.view, size: .flexible(3))
        addChild(reader)
        panes.add(reader.view, size: .flexible(2))
        let stack = VStack(spacing: 1)
        stack.add(intro, size: .fit)
        stack.add(panes, size: .fill)
        embed(stack)

        inbox.messages = { [unowned self] in self.messages }
        inbox.onSelect = { [unowned self] index in self.reader.show(self.messages[index]) }
        inbox.onToggleUnread = { [unowned self] index in self.change(index) { $0.isUnread.toggle() } }
        reader.onToggleStar = { [unowned self] id in
            guard let index = self.messages.firstIndex(where: { $0.id == id }) else { return }
            self.change(index) { $0.isStarred.toggle() }
        }
        keyBindings = [KeyBinding(.character("r"), "read all") { [unowned self] in
            for index in self.messages.indices where self.messages[index].isUnread {
                self.messages[index].isUnread = false
            }
            self.inbox.reload()
            self.reader.show(self.messages[self.inbox.selectedIndex])
        }]
        inbox.reload()
        reader.show(messages[0])
    }

    /// Changes one message and shows it again in both children.
    private func change(_ index: Int, _ edit: (inout DemoMessage) -> Void) {
        edit(&messages[index])
        inbox.reload()
        reader.show(messages[index])
    }
}

/// The inbox: a list whose rows the list keeps by identity (the message itself), so a row is formatted once until
/// its message changes; after each frame it formats the rows a page either way.
@MainActor
final class InboxViewController: ViewController, ListViewDataSource {
    var messages: () -> [DemoMessage] = { [] }
    var onSelect: (Int) -> Void = { _ in }
    var onToggleUnread: (Int) -> Void = { _ in }
    private let list = ListView(emptyText: "No messages")
    private let made = Label("", style: .muted)
    private var rowsMade = 0

    init() { super.init(title: "Inbox") }

    override func viewDidLoad() {
        list.dataSource = self
        list.openHelp = "open message"
        list.onSelectionChange = { [unowned self] index in self.onSelect(index) }
        list.onSelect = { [unowned self] index in self.onSelect(index) }
        let column = VStack(spacing: 0)
        column.add(list, size: .fill)
        column.add(made, size: .fixed(1))
        view.addSubview(Panel(title: "Inbox", content: column))
        keyBindings = [KeyBinding(.character("u"), "mark unread") { [unowned self] in
            self.onToggleUnread(self.selectedIndex)
        }]
    }

    var selectedIndex: Int { list.selectedIndex ?? 0 }

    func reload() {
        list.reloadData()
    }

    override func didPresentFrame() {
        super.didPresentFrame()
        list.prepareRowsAround(screens: 1)
        let text = "rows formatted: \(rowsMade) of \(list.numberOfRows)"
        // A label changed after a frame asks for one more frame, with the count as it is now.
        if made.text != text { made.text = text }
    }

    func numberOfRows(in listView: ListView) -> Int { messages().count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        rowsMade += 1
        let message = messages()[index]
        let marks = (message.isUnread ? "● " : "  ") + (message.isStarred ? "★ " : "  ")
        return ListRow(marks + message.sender, detail: message.subject, style: message.isUnread ? .title : .text)
    }

    func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable? {
        AnyHashable(messages()[index])
    }
}

/// The message shown: sender, subject and its flags, with a key of its own to star it.
@MainActor
final class ReaderViewController: ViewController {
    var onToggleStar: (Int) -> Void = { _ in }
    private let sender = Label("", style: .title)
    private let subject = Label("", overflow: .wrap)
    private let flags = Label("", style: .muted)
    private let star = Button("Star")
    private var shownID: Int?

    init() { super.init(title: "Message") }

    override func viewDidLoad() {
        star.action = { [unowned self] in self.toggleStar() }
        let column = VStack(spacing: 1)
        column.add(sender, size: .fixed(1))
        column.add(subject, size: .fit)
        column.add(flags, size: .fixed(1))
        column.add(star, size: .fixed(1))
        view.addSubview(Panel(title: "Message", content: column))
        keyBindings = [KeyBinding(.character("s"), "star") { [unowned self] in self.toggleStar() }]
    }

    func show(_ message: DemoMessage) {
        shownID = message.id
        sender.text = "From " + message.sender
        subject.text = message.subject
        flags.text = [message.isUnread ? "unread" : "read", message.isStarred ? "starred" : nil]
            .compactMap { $0 }.joined(separator: " · ")
        star.title = message.isStarred ? "Unstar" : "Star"
    }

    private func toggleStar() {
        if let shownID { onToggleStar(shownID) }
    }
}
