import Testing
@testable import TerminalUI

/// A child controller: a heading line over a column of one-line views, with its lifecycle calls recorded in a log.
@MainActor
private final class Pane: ViewController {
    let log: EventLog
    let stack = VStack(spacing: 0)
    private let content: [View]
    private(set) var presentedFrames = 0
    var focusInViewDidLoad: View?

    init(_ title: String, log: EventLog, _ content: [View]) {
        self.log = log
        self.content = content
        super.init(title: title)
    }

    override func viewDidLoad() {
        log.events.append("\(title).didLoad")
        stack.add(Label("\(title) pane", style: .title), size: .fixed(1))
        for view in content { stack.add(view, size: .fixed(1)) }
        view.addSubview(stack)
        if let focusInViewDidLoad { focus(focusInViewDidLoad) }
    }

    override func viewWillAppear() { log.events.append("\(title).willAppear") }
    override func viewDidAppear() { log.events.append("\(title).didAppear") }
    override func viewWillDisappear() { log.events.append("\(title).willDisappear") }
    override func viewDidDisappear() { log.events.append("\(title).didDisappear") }

    override func didPresentFrame() {
        super.didPresentFrame()
        presentedFrames += 1
    }
}

/// A screen with a button of its own on the top line and its children side by side below it.
@MainActor
private final class HostScreen: ViewController {
    let log: EventLog
    let own = Button("Own")
    let row = HStack(spacing: 1)
    let hosted: [Pane]

    init(log: EventLog, children: [Pane]) {
        self.log = log
        self.hosted = children
        super.init(title: "Host")
    }

    override func viewDidLoad() {
        log.events.append("Host.didLoad")
        let column = VStack(spacing: 0)
        column.add(own, size: .fixed(1))
        for child in hosted {
            addChild(child)
            row.add(child.view, size: .fill)
        }
        column.add(row, size: .fill)
        view.addSubview(column)
    }

    override func viewWillAppear() { log.events.append("Host.willAppear") }
    override func viewDidAppear() { log.events.append("Host.didAppear") }
    override func viewWillDisappear() { log.events.append("Host.willDisappear") }
    override func viewDidDisappear() { log.events.append("Host.didDisappear") }

    override func shouldGoBack() -> Bool {
        log.events.append("Host.shouldGoBack")
        return true
    }
}

/// A child holding a list of 1000 rows kept by identity, prepared a screen either way after each frame.
@MainActor
private final class ListPane: ViewController, ListViewDataSource {
    let list = ListView()
    /// Every row formatted, by index, in order.
    private(set) var made: [Int] = []

    override func viewDidLoad() {
        list.dataSource = self
        view.addSubview(list)
    }

    override func didPresentFrame() {
        super.didPresentFrame()
        list.prepareRowsAround(screens: 1)
    }

    func numberOfRows(in listView: ListView) -> Int { 1000 }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        made.append(index)
        return ListRow("Row \(index)", detail: "\(index * 7)")
    }

    func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable? { index }
}

/// A host pushed over a root screen, hosting a list pane (two buttons) and a detail pane (a button and a field).
/// Bindings: `x` and `h` on the host, `x` and `l` on the list pane, `d` on the detail pane; each records its name.
@MainActor
private final class Fixture {
    let log = EventLog()
    let one = Button("One")
    let two = Button("Two")
    let detailButton = Button("Detail")
    let note = TextField(placeholder: "note")
    let list: Pane
    let detail: Pane
    let host: HostScreen
    let navigation = NavigationController(root: ViewController(title: "Root"))
    var fired: [String] = []

    init() {
        list = Pane("List", log: log, [one, two])
        detail = Pane("Detail", log: log, [detailButton, note])
        host = HostScreen(log: log, children: [list, detail])
        host.keyBindings = [
            KeyBinding(.character("x"), "host x") { [unowned self] in fired.append("host x") },
            KeyBinding(.character("h"), "host h") { [unowned self] in fired.append("host h") },
        ]
        list.keyBindings = [
            KeyBinding(.character("x"), "list x") { [unowned self] in fired.append("list x") },
            KeyBinding(.character("l"), "list l") { [unowned self] in fired.append("list l") },
        ]
        detail.keyBindings = [
            KeyBinding(.character("d"), "detail d", showsInStatusBar: false) { [unowned self] in fired.append("detail d") },
        ]
    }

    /// Starts the app and pushes the host.
    func start(width: Int = 80, height: Int = 12) throws -> (Application, HeadlessTerminal) {
        let (app, terminal) = try makeApp(navigation, width: width, height: height)
        navigation.push(host)
        app.render()
        return (app, terminal)
    }
}

/// The cell where `text` first appears on the screen (its first character's column and row).
@MainActor
private func cell(of text: String, in terminal: HeadlessTerminal) throws -> Point {
    let y = try #require(terminal.lines.firstIndex { $0.contains(text) })
    let line = terminal.lines[y]
    let start = try #require(line.range(of: text)).lowerBound
    return Point(x: String(line[..<start]).displayWidth, y: y)
}

@Suite("Child view controllers")
@MainActor
struct ContainmentTests {
    @Test("Tab and Shift-Tab, Down and Up cross from the screen's own view into each child's and back, wrapping")
    func tabCrossesChildren() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        #expect(fixture.host.focusedView === fixture.host.own)
        app.send(.tab)
        #expect(fixture.host.focusedView === fixture.one)
        #expect(fixture.one.isFocused && !fixture.host.own.isFocused)
        #expect(fixture.list.containsFocus && !fixture.detail.containsFocus)
        app.send(.down)
        #expect(fixture.host.focusedView === fixture.two)
        app.send(.tab)
        #expect(fixture.host.focusedView === fixture.detailButton)
        #expect(fixture.detail.focusedView === fixture.detailButton && fixture.list.focusedView == nil)
        app.send(.tab)
        #expect(fixture.host.focusedView === fixture.note)
        app.send(.tab)
        #expect(fixture.host.focusedView === fixture.host.own, "past the last child's view, back to the screen's first")
        #expect(!fixture.list.containsFocus && !fixture.detail.containsFocus)
        app.send(.backTab)
        #expect(fixture.host.focusedView === fixture.note)
        app.send(.up)
        app.send(.up)
        #expect(fixture.host.focusedView === fixture.two)
        let focused = [fixture.host.own, fixture.one, fixture.two, fixture.detailButton, fixture.note].filter(\.isFocused)
        #expect(focused.count == 1, "one focus on the screen")
    }

    @Test("A click on a child's view focuses it; a child focusing a view moves the screen's one focus there")
    func clickAndChildFocus() throws {
        let fixture = Fixture()
        let (app, terminal) = try fixture.start()
        app.send(.mouse(MouseEvent(.press(.left), at: try cell(of: "note", in: terminal))))
        #expect(fixture.host.focusedView === fixture.note)
        #expect(fixture.note.isFocused && fixture.detail.containsFocus)
        app.type("hi")
        #expect(fixture.note.text == "hi", "the child's field takes the typing")

        fixture.list.focus(fixture.two)
        #expect(fixture.host.focusedView === fixture.two)
        #expect(fixture.list.focusedView === fixture.two && fixture.detail.focusedView == nil)
        #expect(fixture.two.isFocused && !fixture.note.isFocused)
        fixture.list.focus(Button("not on this screen"))
        #expect(fixture.host.focusedView === fixture.two, "a view outside the screen is not focused")
    }

    @Test("A key goes to the focused child's binding before the screen's; the screen's keys work while a child is focused")
    func childBindingFirst() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        fixture.host.focus(fixture.one)
        app.send(.character("x"))
        app.send(.character("l"))
        app.send(.character("h"))
        #expect(fixture.fired == ["list x", "list l", "host h"])
    }

    @Test("A child's keys do nothing while the focus is in another child or on the screen's own views")
    func childBindingOnlyWhileFocused() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        fixture.host.focus(fixture.detailButton)
        app.send(.character("l"))
        app.send(.character("x"))
        app.send(.character("d"))
        #expect(fixture.fired == ["host x", "detail d"])
        fixture.fired.removeAll()
        fixture.host.focus(fixture.host.own)
        app.send([.character("l"), .character("d"), .character("x")])
        #expect(fixture.fired == ["host x"])
    }

    @Test("The focused view takes a key before any controller: the detail pane's field types the d it binds")
    func focusedViewFirst() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        fixture.detail.focus(fixture.note)
        app.type("dx")
        #expect(fixture.note.text == "dx")
        #expect(fixture.fired.isEmpty)
    }

    @Test("The help overlay and the status bar show the screen's keys and the focused child's, not another child's")
    func compositeHints() throws {
        let fixture = Fixture()
        let (app, terminal) = try fixture.start()
        fixture.host.focus(fixture.one)
        app.render()
        let helps = { app.helpBindings.map(\.help) }
        #expect(helps().prefix(5) == ["host x", "host h", "list x", "list l", "press"])
        #expect(helps().contains("next field"))
        #expect(!helps().contains("detail d"))
        #expect(terminal.lines.last == " x host x  h host h  x list x  l list l  Esc back  ? help")

        fixture.host.focus(fixture.detailButton)
        app.render()
        #expect(helps().prefix(4) == ["host x", "host h", "detail d", "press"])
        #expect(!helps().contains("list l"))
        #expect(terminal.lines.last == " x host x  h host h  Esc back  ? help", "d is not shown in the status bar")

        fixture.host.focus(fixture.host.own)
        app.render()
        #expect(helps().prefix(3) == ["host x", "host h", "press"])
        #expect(terminal.lines.last == " x host x  h host h  Esc back  ? help")
    }

    @Test("Appearance reaches the children after their parent, and a child's view loads when first asked for")
    func appearanceForwarded() throws {
        let fixture = Fixture()
        _ = try fixture.start()
        #expect(fixture.log.take() == [
            "Host.didLoad", "List.didLoad", "Detail.didLoad",
            "Host.willAppear", "List.willAppear", "Detail.willAppear",
            "Host.didAppear", "List.didAppear", "Detail.didAppear",
        ])
        fixture.navigation.push(ViewController(title: "Next"))
        #expect(fixture.log.take() == [
            "Host.willDisappear", "List.willDisappear", "Detail.willDisappear",
            "Host.didDisappear", "List.didDisappear", "Detail.didDisappear",
        ])
        fixture.navigation.pop()
        #expect(fixture.log.take() == [
            "Host.willAppear", "List.willAppear", "Detail.willAppear",
            "Host.didAppear", "List.didAppear", "Detail.didAppear",
        ])

        let late = Pane("Late", log: fixture.log, [Button("Late")])
        fixture.host.addChild(late)
        #expect(fixture.log.take() == ["Late.didLoad", "Late.willAppear", "Late.didAppear"], "added on screen, it appears at once")
        late.removeFromParent()
        #expect(fixture.log.take() == ["Late.willDisappear", "Late.didDisappear"])
        #expect(late.parent == nil)
        #expect(fixture.host.children.map(\.title) == ["List", "Detail"])
    }

    @Test("A child reaches the application, navigation controller and tracked tasks through its parent, and gets each frame's after-call")
    func throughTheParent() async throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        #expect(fixture.list.parent === fixture.host)
        #expect(fixture.list.application === app)
        #expect(fixture.list.navigationController === fixture.navigation)
        let ran = EventLog()
        fixture.list.task { ran.events.append("ran") }
        await app.settle()
        #expect(ran.events == ["ran"], "the child's task ran on the application's tracked tasks")
        let frames = fixture.detail.presentedFrames
        app.send(.tab)
        #expect(fixture.detail.presentedFrames == frames + 1)
    }

    @Test("A child's view is laid out by the parent's layout: it resizes with the terminal and draws what it holds")
    func childResizesWithParent() throws {
        let fixture = Fixture()
        let (app, terminal) = try fixture.start(width: 60)
        #expect(fixture.list.view.frame.width == 29)
        #expect(fixture.detail.view.frame == Rect(x: 30, y: 0, width: 30, height: 9))
        #expect(terminal.lines[2].hasPrefix("List pane" + String(repeating: " ", count: 21) + "Detail pane"))
        terminal.resize(width: 80, height: 14)
        app.send(.resize)
        #expect(fixture.list.view.frame.width == 39)
        #expect(fixture.detail.view.frame == Rect(x: 40, y: 0, width: 40, height: 11))
        #expect(terminal.lines[2].hasPrefix("List pane" + String(repeating: " ", count: 31) + "Detail pane"))
    }

    @Test("Removing a child takes the focus from its view; the screen focuses its first view at the next frame")
    func removeFromParentUnfocuses() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        fixture.host.focus(fixture.detailButton)
        fixture.detail.removeFromParent()
        #expect(fixture.host.focusedView == nil)
        #expect(!fixture.detailButton.isFocused)
        #expect(!fixture.detail.containsFocus)
        fixture.host.row.remove(fixture.detail.view)
        app.render()
        #expect(fixture.host.focusedView === fixture.host.own)
        app.send(.character("d"))
        #expect(fixture.fired.isEmpty, "a removed child's keys are gone")

        fixture.host.focus(fixture.one)
        fixture.detail.removeFromParent()
        #expect(fixture.host.focusedView === fixture.one, "removing again, or a child without the focus, leaves the focus")
    }

    @Test("A child that focuses a view in its viewDidLoad has it focused on the screen, added before or after loading")
    func childFocusesOnLoad() throws {
        let log = EventLog()
        let target = Button("Target")
        let child = Pane("Child", log: log, [Button("First"), target])
        child.focusInViewDidLoad = target
        let host = HostScreen(log: log, children: [child])
        _ = try makeApp(NavigationController(root: host))
        #expect(host.focusedView === target)
        #expect(target.isFocused)

        let early = Button("Early")
        let loadedFirst = Pane("Loaded first", log: log, [Button("Before"), early])
        loadedFirst.focusInViewDidLoad = early
        _ = loadedFirst.view
        let other = HostScreen(log: log, children: [])
        _ = try makeApp(NavigationController(root: other))
        other.focus(nil)
        other.addChild(loadedFirst)
        other.row.add(loadedFirst.view, size: .fill)
        #expect(other.focusedView === early, "the focus it chose before it had a parent comes with it")
    }

    @Test("Esc goes to the screen's shouldGoBack while a child is focused, unless the focused child binds it")
    func escapeGoesToScreen() throws {
        let fixture = Fixture()
        let (app, _) = try fixture.start()
        fixture.host.focus(fixture.two)
        _ = fixture.log.take()
        fixture.detail.keyBindings.append(KeyBinding(.escape, "close") { fixture.fired.append("detail esc") })
        app.send(.escape)
        #expect(fixture.log.events.first == "Host.shouldGoBack")
        #expect(fixture.navigation.topViewController !== fixture.host)

        fixture.navigation.push(fixture.host)
        fixture.host.focus(fixture.detailButton)
        _ = fixture.log.take()
        app.send(.escape)
        #expect(fixture.fired == ["detail esc"])
        #expect(fixture.log.take().isEmpty)
        #expect(fixture.navigation.topViewController === fixture.host)
    }

    @Test("A list in a child, keeping its rows and preparing them after each frame, scrolls by moving rows on every Down")
    func childListScrolls() throws {
        let log = EventLog()
        let pane = ListPane()
        let host = HostScreen(log: log, children: [])
        let (app, terminal) = try makeApp(NavigationController(root: host), width: 40, height: 14)
        host.addChild(pane)
        host.row.add(pane.view, size: .fill)
        host.focus(pane.list)
        app.render()
        var drawnWhole: [Int] = []
        for step in 1...60 {
            let before = terminal.buffer
            app.send(.down)
            if step > 10, terminal.buffer.scrolledRun(from: before) == nil { drawnWhole.append(step) }
        }
        #expect(pane.list.selectedIndex == 60)
        #expect(drawnWhole.isEmpty)
        #expect(pane.made.count == Set(pane.made).count, "no row was formatted twice")
        #expect(pane.made.max() == 60 + pane.list.visibleRowCount, "rows a screen below the last one shown were prepared")
    }

    @Test("A controller is never its own ancestor, and adding a child again keeps one entry")
    func addingTwice() throws {
        let log = EventLog()
        let parent = Pane("Parent", log: log, [])
        let child = Pane("Child", log: log, [])
        parent.addChild(child)
        parent.addChild(child)
        #expect(parent.children.count == 1)
        let other = Pane("Other", log: log, [])
        other.addChild(child)
        #expect(parent.children.isEmpty && child.parent === other)
    }
}
