@testable import TerminalUI

/// Draws one view on its own into a fresh buffer and returns the rows (trailing spaces trimmed).
@MainActor
func render(_ view: View, width: Int, height: Int, focused: Bool = false, theme: Theme = .colored()) -> [String] {
    renderBuffer(view, width: width, height: height, focused: focused, theme: theme).lines
}

/// Draws one view on its own and returns the whole buffer (for style assertions).
@MainActor
func renderBuffer(_ view: View, width: Int, height: Int, focused: Bool = false, theme: Theme = .colored()) -> CellBuffer {
    let screen = Rect(x: 0, y: 0, width: width, height: height)
    let surface = DrawingSurface(buffer: CellBuffer(size: screen.size))
    view.frame = screen
    view.isFocused = focused
    view.layoutTree()
    view.drawTree(in: Canvas(surface: surface, frame: screen, clip: screen, theme: theme))
    return surface.buffer
}

/// A started application on a headless terminal.
@MainActor
func makeApp(_ root: ViewController, width: Int = 60, height: Int = 16, environment: [String: String] = [:],
             capabilities: TerminalCapabilities = .init(hasColor: true, isUnicode: true),
             themeChoice: ThemeChoice = .auto) throws -> (Application, HeadlessTerminal) {
    let terminal = HeadlessTerminal(width: width, height: height, capabilities: capabilities)
    let app = Application(terminal: terminal, rootViewController: root, themeChoice: themeChoice, environment: environment)
    try app.start()
    return (app, terminal)
}

/// A screen that records its lifecycle calls into a shared log.
@MainActor
final class LifecycleSpy: ViewController {
    let log: EventLog
    var allowsBack = true

    init(_ title: String, log: EventLog) {
        self.log = log
        super.init(title: title)
    }

    override func viewDidLoad() { log.events.append("\(title).didLoad") }
    override func viewWillAppear() { log.events.append("\(title).willAppear") }
    override func viewDidAppear() { log.events.append("\(title).didAppear") }
    override func viewWillDisappear() { log.events.append("\(title).willDisappear") }
    override func viewDidDisappear() { log.events.append("\(title).didDisappear") }
    override func shouldGoBack() -> Bool {
        log.events.append("\(title).shouldGoBack")
        return allowsBack
    }
}

/// Lifecycle events in the order they happened.
@MainActor
final class EventLog {
    var events: [String] = []

    func take() -> [String] {
        defer { events.removeAll() }
        return events
    }
}

/// A screen holding a column of views given by the test.
@MainActor
final class StackScreen: ViewController {
    let stack = VStack(spacing: 0)

    init(_ title: String, _ views: [(View, StackSize)]) {
        super.init(title: title)
        for (view, size) in views {
            stack.add(view, size: size)
        }
    }

    override func viewDidLoad() {
        view.addSubview(stack)
    }
}

/// A list data source over an array that counts the rows it was asked for.
@MainActor
final class ArrayDataSource: ListViewDataSource {
    var rows: [String]
    private(set) var requested: [Int] = []

    init(_ rows: [String]) {
        self.rows = rows
    }

    init(count: Int) {
        rows = (0..<count).map { "Row \($0)" }
    }

    func numberOfRows(in listView: ListView) -> Int { rows.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        requested.append(index)
        return ListRow(rows[index])
    }

    func resetRequests() { requested.removeAll() }
}
