import Testing
@testable import TerminalUI

/// Three labels on rows 1 to 3 under the header, and a list below them.
@MainActor
private final class RowsScreen: ViewController, ListViewDataSource {
    let first = Label("First")
    let second = Label("Second")
    let third = Label("Third")
    let list = ListView(emptyText: "Nothing")
    var items = (0..<40).map { "Item \($0)" }

    override func viewDidLoad() {
        let stack = VStack()
        stack.add(first, size: .fixed(1))
        stack.add(second, size: .fixed(1))
        stack.add(third, size: .fixed(1))
        stack.add(Panel(title: "Items", content: list), size: .fill)
        view.addSubview(stack)
        list.dataSource = self
        focus(list)
    }

    func numberOfRows(in listView: ListView) -> Int { items.count }
    func listView(_ listView: ListView, rowAt index: Int) -> ListRow { ListRow(items[index]) }
}

/// Counts its frames and, after the first frame a key brings, changes a label: work done after the frame.
@MainActor
private final class AfterFrameScreen: ViewController {
    let label = Label("Before")
    var framesSeen = 0
    var changesAfterFrame = false

    override func viewDidLoad() {
        view.addSubview(label)
        label.frame = Rect(x: 0, y: 0, width: 20, height: 1)
    }

    override func didPresentFrame() {
        framesSeen += 1
        if changesAfterFrame {
            changesAfterFrame = false
            label.text = "After"
        }
    }

    override func handle(_ key: Key) -> Bool {
        label.text = "Key"
        changesAfterFrame = true
        return true
    }
}

/// A view that draws a value it changes without asking to be drawn again: the mistake the check catches.
@MainActor
private final class ForgetfulView: View {
    var value = "before"
    override func draw(in canvas: Canvas) { canvas.write(value, x: 0, y: 0) }
}

/// A view that grows but says its size is unchanged: the mistake the layout check catches.
@MainActor
private final class GrowingView: View {
    var lines = 1
    func grow() {
        lines += 1
        setNeedsDisplay(sizeUnchanged: true)
    }
    override func sizeThatFits(_ proposal: Size) -> Size { Size(width: proposal.width, height: min(lines, proposal.height)) }
}

@Suite("Partial redraw", .timeLimit(.minutes(3)))
@MainActor
struct PartialRedrawTests {
    @Test("A label's change draws only its row, over the rest of the last frame")
    func labelRow() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        #expect(app.lastDrawnRows == 0..<16)
        let before = terminal.lines
        screen.second.text = "Changed"
        await app.settle()
        #expect(app.lastDrawnRows == 2..<3)
        #expect(terminal.lines[2] == "Changed")
        #expect(terminal.lines.enumerated().filter { $0.offset != 2 }.map(\.element)
            == before.enumerated().filter { $0.offset != 2 }.map(\.element))
    }

    @Test("A step in a list draws the two rows whose look changed; a scroll by a row moves the rest and draws two rows too")
    func listStep() throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        app.send(.down)
        // The row left (5) and the row reached (6), inside the panel under the three labels and its border.
        #expect(app.lastDrawnRows == 5..<7)
        #expect(terminal.lines[6].contains("Item 1"))
        // Rows 5 to 13 show items 0 to 8; the ninth Down scrolls by one: rows 5 to 12 are the last frame's rows 6 to
        // 13 moved up, and only the row left (12) and the row uncovered and reached (13) are drawn. The headless
        // terminal checks every frame drawn in part against the same frame drawn whole.
        for _ in 0..<8 { app.send(.down) }
        #expect(app.lastDrawnRows == 12..<14)
        #expect(terminal.lines[5].contains("Item 1") && terminal.lines[13].contains("Item 9"))
        for _ in 0..<8 { app.send(.up) }
        #expect(app.lastDrawnRows == 5..<7)
        #expect(terminal.lines[5].contains("Item 1"))
        // Up from the top row scrolls the other way: the row uncovered and reached (5) and the row left (6).
        app.send(.up)
        #expect(app.lastDrawnRows == 5..<7)
        #expect(terminal.lines[5].contains("Item 0") && terminal.lines[13].contains("Item 8"))
    }

    @Test("A page, a scroll of the list's whole height, draws the list whole; so does a scroll under another view")
    func listPageAndCover() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        app.send(.pageDown)
        app.send(.pageDown)
        #expect(app.lastDrawnRows == 5..<14)
        #expect(terminal.lines[13].contains("Item 18"))
        // A view drawn over the list (here inside it, drawn after it): the list's rows are drawn, not copied.
        let cover = Label("Over the list")
        screen.list.addSubview(cover)
        cover.frame = Rect(x: 10, y: 3, width: 20, height: 1)
        await app.settle()
        app.send(.down)
        #expect(app.lastDrawnRows == 5..<14)
        #expect(terminal.lines[8].contains("Over the list") && terminal.lines[13].contains("Item 19"))
    }

    @Test("A view that is hidden, shown or moved is drawn again where it was and where it is")
    func hiddenAndMoved() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        screen.first.isHidden = true
        await app.settle()
        #expect(terminal.lines[1] == "Second")
        #expect(terminal.lines[2] == "Third")
        screen.first.isHidden = false
        await app.settle()
        #expect(terminal.lines[1...3] == ["First", "Second", "Third"])
    }

    @Test("A key that changes nothing draws no frame")
    func unchangedKey() throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        let frames = terminal.presentCount
        app.send(.character("x"))
        #expect(terminal.presentCount == frames)
        app.send(.down)
        #expect(terminal.presentCount == frames + 1)
    }

    @Test("Rows changed off screen, a footer set below rows off screen and an empty text set again draw no frame")
    func changesOffScreen() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        let frames = terminal.presentCount
        screen.items[30] = "Item 30, fetched again"
        screen.list.reloadRowsOffScreen()
        screen.list.footer = "Loading more"
        screen.list.emptyText = "Nothing"
        await app.settle()
        #expect(terminal.presentCount == frames)
        // Rows added far below (a page fetched ahead) are not drawn until scrolled to.
        screen.items.append("Item 40")
        screen.list.reloadRowsOffScreen()
        await app.settle()
        #expect(terminal.presentCount == frames)
        app.send(.end)
        #expect(terminal.lines.contains { $0.contains("Item 40") } && terminal.lines.contains { $0.contains("Loading more") })
        // With the end on screen, a row added there is drawn, over the footer it pushes down.
        screen.items.append("Item 41")
        screen.list.reloadRowsOffScreen()
        await app.settle()
        #expect(terminal.lines.contains { $0.contains("Item 41") } && !terminal.lines.contains { $0.contains("Loading more") })
        screen.list.footer = nil
        screen.list.footer = "Loading more"
        app.send(.end)
        #expect(terminal.lines.contains { $0.contains("Loading more") })
    }

    @Test("A footer set while the last row is selected comes into view at once, the rows moving up to make room")
    func footerBelowTheSelectedLastRow() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        app.send(.end)
        #expect(terminal.lines[13].contains("Item 39"))
        screen.list.footer = "Loading more"
        await app.settle()
        #expect(terminal.lines[12].contains("Item 39") && terminal.lines[13].contains("Loading more"))
        // A layout for another reason (a label's new text) finds the list as drawn: the partial-frame check holds.
        screen.first.text = "First, changed"
        await app.settle()
        #expect(terminal.lines[12].contains("Item 39"))
    }

    @Test("A screen hears of each frame after it is out; what it changes then is drawn in a frame of its own")
    func afterTheFrame() async throws {
        let screen = AfterFrameScreen(title: "After")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        // The render the first frame's set-up asked for runs (and finds nothing to draw) before the key.
        for _ in 0..<1_000 where app.renderScheduled { await Task.yield() }
        #expect(!app.renderScheduled)
        let frames = terminal.presentCount
        #expect(screen.framesSeen == 1)
        app.send(.character("x"))
        // The key's frame went out with "Key"; the change made after it is drawn on a later turn, unasked.
        #expect(terminal.presentCount == frames + 1)
        #expect(screen.framesSeen == 2)
        #expect(app.renderScheduled)
        for _ in 0..<1_000 where terminal.presentCount == frames + 1 { await Task.yield() }
        #expect(terminal.presentCount == frames + 2)
        #expect(terminal.lines.contains { $0.hasPrefix("After") })
        #expect(screen.framesSeen == 3)
    }

    @Test("Up on the first row and Down on the last draw no frame; the step before them does")
    func stepPastTheEnds() throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        let frames = terminal.presentCount
        app.send(.up)
        #expect(terminal.presentCount == frames)
        app.send(.end)
        #expect(terminal.presentCount == frames + 1)
        #expect(terminal.lines.contains { $0.contains("Item 39") })
        app.send(.down)
        #expect(terminal.presentCount == frames + 1)
        app.send(.up)
        #expect(terminal.presentCount == frames + 2)
    }

    @Test("The screen is drawn whole again after the help overlay closes and after a resize")
    func wholeFrames() throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        app.send(.character("?"))
        #expect(app.lastDrawnRows == 0..<16)
        app.send(.character("?"))
        #expect(app.lastDrawnRows == 0..<16)
        #expect(terminal.lines[1] == "First")
        terminal.resize(width: 50, height: 14)
        app.send(.resize)
        #expect(app.lastDrawnRows == 0..<14)
    }

    @Test("A view that changes what it draws without asking stops a checked program")
    func forgottenRedrawIsCaught() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let forgetful = ForgetfulView()
                let root = ViewController(title: "Check")
                let label = Label("Label")
                let stack = VStack()
                stack.add(forgetful, size: .fixed(1))
                stack.add(label, size: .fixed(1))
                root.view.addSubview(stack)
                let app = Application(terminal: HeadlessTerminal(width: 40, height: 12), rootViewController: root)
                try? app.start()
                forgetful.value = "after"
                label.text = "Changed"
                app.renderIfNeeded()
            }
        }
    }

    @Test("A change that resizes a view but says it does not stops a checked program")
    func wrongSizeUnchangedIsCaught() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let growing = GrowingView()
                let root = ViewController(title: "Check")
                let stack = VStack()
                stack.add(growing, size: .fit)
                stack.add(Label("Below"), size: .fixed(1))
                root.view.addSubview(stack)
                let app = Application(terminal: HeadlessTerminal(width: 40, height: 12), rootViewController: root)
                try? app.start()
                growing.grow()
                app.renderIfNeeded()
            }
        }
    }

    @Test("A list step moves the selection without laying out again, and a label's new text is laid out")
    func layoutOnlyWhenSizesMayChange() async throws {
        let screen = RowsScreen(title: "Rows")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        app.send(.down)
        #expect(terminal.lines[6].contains("Item 1"))
        screen.first.isHidden = true
        await app.settle()
        #expect(terminal.lines[1] == "Second")
        #expect(terminal.lines[3].contains("Items"))
    }
}
