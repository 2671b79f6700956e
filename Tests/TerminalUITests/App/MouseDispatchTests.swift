import Testing
@testable import TerminalUI

/// The raw SGR report of a mouse event at a 0-based cell, as a terminal in mode 1006 sends it.
private func report(_ code: Int, at point: Point, release: Bool = false) -> [UInt8] {
    Array("\u{1B}[<\(code);\(point.x + 1);\(point.y + 1)\(release ? "m" : "M")".utf8)
}

/// The cell where `text` first appears on the terminal's screen.
@MainActor
private func cell(of text: String, in terminal: HeadlessTerminal) throws -> Point {
    for (y, line) in terminal.lines.enumerated() {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index...].hasPrefix(text) {
                return Point(x: String(line[..<index]).displayWidth, y: y)
            }
            index = line.index(after: index)
        }
    }
    throw CellNotFound(text: text, screen: terminal.text)
}

private struct CellNotFound: Error {
    let text: String
    let screen: String
}

/// A screen with a button, a text field and a list of 50 rows, in a column.
@MainActor
private final class MouseScreen: ViewController {
    let button = Button("Press me")
    let field = TextField(placeholder: "type here")
    let list = ListView()
    let source = ArrayDataSource(count: 50)
    var presses = 0
    var opened: [Int] = []

    init() { super.init(title: "Mouse") }

    override func viewDidLoad() {
        button.action = { [weak self] in self?.presses += 1 }
        list.dataSource = source
        list.onSelect = { [weak self] in self?.opened.append($0) }
        let stack = VStack(spacing: 0)
        stack.add(button, size: .fixed(1))
        stack.add(field, size: .fixed(1))
        stack.add(list, size: .fill)
        view.addSubview(stack)
    }
}

@Suite("Mouse dispatch")
@MainActor
struct MouseDispatchTests {
    @Test("Hit-testing finds the deepest visible view, later subviews on top, and converts coordinates")
    func hitTesting() {
        let root = View()
        root.frame = Rect(x: 0, y: 0, width: 20, height: 10)
        let panel = View()
        panel.frame = Rect(x: 2, y: 3, width: 10, height: 5)
        let inner = View()
        inner.frame = Rect(x: 1, y: 1, width: 4, height: 2)
        let overlay = View()
        overlay.frame = Rect(x: 8, y: 0, width: 5, height: 5)
        root.addSubview(panel)
        panel.addSubview(inner)
        root.addSubview(overlay)

        #expect(root.hitTest(Point(x: 3, y: 4)) === inner)
        #expect(root.hitTest(Point(x: 2, y: 3)) === panel)
        #expect(root.hitTest(Point(x: 9, y: 4)) === overlay)
        #expect(root.hitTest(Point(x: 15, y: 9)) === root)
        #expect(root.hitTest(Point(x: 20, y: 0)) == nil)
        overlay.isHidden = true
        #expect(root.hitTest(Point(x: 9, y: 4)) === panel)
        #expect(inner.convert(Point(x: 5, y: 6), from: root) == Point(x: 2, y: 2))
    }

    @Test("A click focuses a text field, which then takes the typing")
    func clickFocusesField() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 16)
        #expect(screen.focusedView === screen.button)
        app.process(report(0, at: try cell(of: "type here", in: terminal)))
        app.process(report(0, at: try cell(of: "type here", in: terminal), release: true))
        #expect(screen.focusedView === screen.field)
        app.process(Array("hi".utf8))
        #expect(screen.field.text == "hi")
    }

    @Test("A click presses a button once; its release, a right click, a Shift-click and a click beside it do not")
    func clickPressesButton() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 16)
        let button = try cell(of: "[ Press me ]", in: terminal)
        app.process(report(0, at: button) + report(0, at: button, release: true))
        #expect(screen.presses == 1)
        app.process(report(2, at: button) + report(4, at: button))
        #expect(screen.presses == 1)
        app.process(report(0, at: Point(x: button.x + 12, y: button.y)))
        #expect(screen.presses == 1)
    }

    @Test("A click selects a list row and focuses the list; a second click on that row opens it")
    func clickSelectsThenOpens() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 16)
        let row3 = try cell(of: "Row 3", in: terminal)
        app.process(report(0, at: row3) + report(0, at: row3, release: true))
        #expect(screen.list.selectedIndex == 3)
        #expect(screen.focusedView === screen.list)
        #expect(screen.opened.isEmpty)
        app.process(report(0, at: row3) + report(0, at: row3, release: true))
        #expect(screen.opened == [3])
        app.process(report(0, at: row3))
        #expect(screen.opened == [3], "a third click starts over")

        let row5 = try cell(of: "Row 5", in: terminal)
        app.process(report(0, at: row5) + report(32, at: Point(x: row5.x, y: row5.y + 2)))
        #expect(screen.list.selectedIndex == 7, "dragging moves the selection")
        app.process(report(0, at: row5))
        #expect(screen.opened == [3], "a click after a drag selects again")
    }

    @Test("A click on the row that keys selected opens only on the second click")
    func firstClickNeverOpens() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 16)
        screen.focus(screen.list)
        app.send(.down)
        app.process(report(0, at: try cell(of: "Row 1", in: terminal)))
        #expect(screen.opened.isEmpty)
        app.process(report(0, at: try cell(of: "Row 1", in: terminal)))
        #expect(screen.opened == [1])
    }

    @Test("The wheel scrolls the list under the pointer, keeping the selection on screen")
    func wheelScrolls() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 16)
        let firstRow = try cell(of: "Row 0", in: terminal)
        app.process(report(65, at: firstRow) + report(65, at: firstRow))
        #expect(screen.list.scrollOffset == 6)
        #expect(screen.list.selectedIndex == 6)
        #expect(terminal.lines[firstRow.y].hasPrefix(" Row 6"))
        #expect(screen.focusedView === screen.button, "the wheel does not move the focus")
        app.process(report(64, at: firstRow))
        #expect(screen.list.scrollOffset == 3)
        #expect(terminal.lines[firstRow.y].hasPrefix(" Row 3"))
        app.process(report(64, at: firstRow) + report(64, at: firstRow))
        #expect(screen.list.scrollOffset == 0)
    }

    @Test("A click on an alert's button chooses it; a click beside the alert reaches nothing under it")
    func alertButton() throws {
        let screen = MouseScreen()
        let navigation = NavigationController(root: screen)
        let (app, terminal) = try makeApp(navigation, width: 60, height: 16)
        var chosen: [String] = []
        navigation.present(AlertController(title: "Remove", message: "Remove it?", actions: [
            AlertAction("Keep", isCancel: true) { chosen.append("Keep") },
            AlertAction("Remove") { chosen.append("Remove") },
        ]))
        app.renderIfNeeded()
        app.process(report(0, at: Point(x: 1, y: 1)))
        #expect(screen.presses == 0)
        #expect(navigation.presentedViewControllers.count == 1)
        app.process(report(0, at: try cell(of: "[ Remove ]", in: terminal)))
        #expect(chosen == ["Remove"])
        #expect(navigation.presentedViewControllers.isEmpty)
        #expect(!terminal.text.contains("Remove it?"))
    }

    @Test("With the help overlay up, a click only closes it")
    func helpOverlay() throws {
        let screen = MouseScreen()
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 60, height: 20)
        let button = try cell(of: "[ Press me ]", in: terminal)
        app.send(.character("?"))
        #expect(app.isHelpVisible)
        app.process(report(65, at: button))
        #expect(app.isHelpVisible, "the wheel leaves it up")
        app.process(report(0, at: button))
        #expect(!app.isHelpVisible)
        #expect(screen.presses == 0)
    }

    @Test("Reports on a terminal too small for the interface are ignored")
    func tooSmall() throws {
        let screen = MouseScreen()
        let (app, _) = try makeApp(NavigationController(root: screen), width: 20, height: 5)
        app.process(report(0, at: Point(x: 1, y: 1)))
        #expect(screen.presses == 0)
    }
}
