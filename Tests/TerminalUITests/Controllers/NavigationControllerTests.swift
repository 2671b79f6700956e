import Testing
@testable import TerminalUI

@Suite("Navigation controller")
@MainActor
struct NavigationControllerTests {
    @Test("Lifecycle calls come in order on start, push, pop, pop to root and set the stack")
    func lifecycleOrder() throws {
        let log = EventLog()
        let root = LifecycleSpy("Root", log: log)
        let sut = NavigationController(root: root)
        let (app, _) = try makeApp(sut)
        #expect(log.take() == ["Root.didLoad", "Root.willAppear", "Root.didAppear"])

        let second = LifecycleSpy("Second", log: log)
        sut.push(second)
        #expect(log.take() == ["Root.willDisappear", "Second.didLoad", "Second.willAppear", "Root.didDisappear", "Second.didAppear"])

        sut.pop()
        #expect(log.take() == ["Second.willDisappear", "Root.willAppear", "Second.didDisappear", "Root.didAppear"])

        sut.push(second)
        #expect(log.take() == ["Root.willDisappear", "Second.willAppear", "Root.didDisappear", "Second.didAppear"])
        let third = LifecycleSpy("Third", log: log)
        sut.push(third)
        _ = log.take()
        sut.popToRoot()
        #expect(log.take() == ["Third.willDisappear", "Root.willAppear", "Third.didDisappear", "Root.didAppear"])
        #expect(sut.viewControllers.count == 1)

        sut.setViewControllers([root, second, third])
        #expect(log.take() == ["Root.willDisappear", "Third.willAppear", "Root.didDisappear", "Third.didAppear"])
        #expect(sut.topViewController === third)
        app.quit()
        #expect(log.take() == ["Third.willDisappear", "Third.didDisappear"])
    }

    @Test("Presenting and dismissing a modal sends lifecycle calls to both screens")
    func modalLifecycle() throws {
        let log = EventLog()
        let root = LifecycleSpy("Root", log: log)
        let sut = NavigationController(root: root)
        _ = try makeApp(sut)
        _ = log.take()
        let modal = LifecycleSpy("Modal", log: log)
        sut.present(modal)
        #expect(sut.visibleViewController === modal)
        #expect(log.take() == ["Root.willDisappear", "Modal.didLoad", "Modal.willAppear", "Root.didDisappear", "Modal.didAppear"])
        sut.dismiss()
        #expect(log.take() == ["Modal.willDisappear", "Root.willAppear", "Modal.didDisappear", "Root.didAppear"])
        #expect(sut.visibleViewController === root)
    }

    @Test("Esc asks the top screen, which can refuse; the root is never popped")
    func escapeIsInterceptable() throws {
        let log = EventLog()
        let sut = NavigationController(root: LifecycleSpy("Root", log: log))
        let (app, _) = try makeApp(sut)
        let second = LifecycleSpy("Second", log: log)
        sut.push(second)
        second.allowsBack = false
        _ = log.take()
        app.send(.escape)
        #expect(log.take() == ["Second.shouldGoBack"])
        #expect(sut.topViewController === second)
        second.allowsBack = true
        app.send(.escape)
        #expect(sut.viewControllers.count == 1)
        _ = log.take()
        app.send(.escape)
        #expect(log.take().isEmpty)
        #expect(app.exitStatus == nil)
    }

    @Test("The header shows the breadcrumb of titles and the status bar the screen's keys")
    func breadcrumbAndStatusBar() throws {
        let sut = NavigationController(root: ViewController(title: "Home"))
        let (app, terminal) = try makeApp(sut, width: 50, height: 12)
        #expect(terminal.lines.first == " Home")
        #expect(terminal.lines.last == " ? help  q quit")
        let detail = ViewController(title: "Transaction")
        detail.keyBindings = [KeyBinding(.character("r"), "refresh") {}, KeyBinding(.character("x"), "secret", showsInStatusBar: false) {}]
        sut.push(detail)
        app.render()
        #expect(terminal.lines.first == " Home › Transaction")
        #expect(terminal.lines.last == " r refresh  Esc back  ? help")
    }

    @Test("A long breadcrumb drops the oldest titles first")
    func longBreadcrumb() throws {
        let sut = NavigationController(root: ViewController(title: "Home"))
        let (app, terminal) = try makeApp(sut, width: 40, height: 12)
        sut.push(ViewController(title: "Cards and accounts"))
        sut.push(ViewController(title: "Add an external card"))
        app.render()
        #expect(terminal.lines.first == " … › Add an external card")
    }

    @Test("An alert is modal, lists its buttons, and runs the chosen action after dismissing")
    func alert() throws {
        let sut = NavigationController(root: ViewController(title: "Cards"))
        let (app, terminal) = try makeApp(sut, width: 50, height: 14)
        var chosen: [String] = []
        let alert = AlertController(title: "Remove card", message: "Remove the card ending in 4242?", actions: [
            AlertAction("Cancel", isCancel: true) { chosen.append("cancel") },
            AlertAction("Remove") { chosen.append("remove") },
        ])
        sut.present(alert)
        app.render()
        #expect(terminal.lines == [
            " Cards",
            "",
            "",
            "",
            "       ┌─ Remove card ───────────────────┐",
            "       │                                 │",
            "       │ Remove the card ending in 4242? │",
            "       │                                 │",
            "       │     [ Cancel ]  [ Remove ]      │",
            "       └─────────────────────────────────┘",
            "",
            "",
            "",
            " Esc back  ? help",
        ])
        app.send(.right)
        app.send(.enter)
        #expect(chosen == ["remove"])
        #expect(sut.presentedViewControllers.isEmpty)
        sut.present(alert)
        app.send(.escape)
        #expect(chosen == ["remove", "cancel"])
        #expect(sut.presentedViewControllers.isEmpty)
    }
}

@Suite("Focus")
@MainActor
struct FocusTests {
    @Test("Tab and Shift-Tab, Down and Up move focus through focusable views in order, wrapping")
    func order() throws {
        let a = TextField(), b = TextField(), label = Label("not focusable"), c = Button("Go")
        let screen = StackScreen("Form", [(a, .fixed(1)), (label, .fixed(1)), (b, .fixed(1)), (c, .fixed(1))])
        _ = try makeApp(NavigationController(root: screen))
        #expect(screen.focusedView === a)
        #expect(a.isFocused)
        #expect(screen.handle(.tab))
        #expect(screen.focusedView === b)
        #expect(!a.isFocused && b.isFocused)
        _ = screen.handle(.down)
        #expect(screen.focusedView === c)
        _ = screen.handle(.tab)
        #expect(screen.focusedView === a)
        _ = screen.handle(.backTab)
        #expect(screen.focusedView === c)
        _ = screen.handle(.up)
        #expect(screen.focusedView === b)
    }

    @Test("A list keeps Up and Down for itself; Tab still leaves it")
    func listKeepsArrows() throws {
        let source = ArrayDataSource(count: 10)
        let list = ListView()
        list.dataSource = source
        let field = TextField()
        let screen = StackScreen("List", [(list, .fixed(5)), (field, .fixed(1))])
        _ = try makeApp(NavigationController(root: screen))
        _ = screen.handle(.down)
        #expect(screen.focusedView === list)
        #expect(list.selectedIndex == 1)
        _ = screen.handle(.tab)
        #expect(screen.focusedView === field)
    }

    @Test("A focused view that is hidden, sits in a hidden stack, is disabled or is removed gives the focus to the first focusable view at the next frame")
    func focusLeavesWhatCannotHoldIt() async throws {
        let a = TextField(), b = TextField(), c = Button("Go")
        let inner = VStack()
        inner.add(b, size: .fixed(1))
        let screen = StackScreen("Form", [(a, .fixed(1)), (inner, .fixed(1)), (c, .fixed(1))])
        let (app, _) = try makeApp(NavigationController(root: screen))
        screen.focus(b)
        inner.isHidden = true
        await app.settle()
        #expect(screen.focusedView === a)
        #expect(a.isFocused && !b.isFocused)
        inner.isHidden = false
        screen.focus(c)
        c.isEnabled = false
        await app.settle()
        #expect(screen.focusedView === a)
        #expect(!c.isFocused)
        screen.focus(b)
        inner.remove(b)
        await app.settle()
        #expect(screen.focusedView === a)
        screen.focus(a)
        a.isHidden = true
        await app.settle()
        #expect(screen.focusedView === nil)
        #expect(!a.isFocused)
    }

    @Test("Focus returns to where it was when a screen comes back")
    func restoredAfterPop() throws {
        let a = TextField(), b = TextField()
        let screen = StackScreen("First", [(a, .fixed(1)), (b, .fixed(1))])
        let sut = NavigationController(root: screen)
        let (app, _) = try makeApp(sut)
        app.send(.tab)
        #expect(b.isFocused)
        sut.push(ViewController(title: "Second"))
        #expect(!b.isFocused)
        app.send(.escape)
        #expect(screen.focusedView === b)
        #expect(b.isFocused)
        #expect(!a.isFocused)
    }

    @Test("The focused field is visibly marked on screen")
    func marked() throws {
        let a = TextField(text: "one"), b = TextField(text: "two")
        let screen = StackScreen("Form", [(a, .fixed(1)), (b, .fixed(1))])
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        let theme = app.theme
        #expect(terminal.buffer[0, 1].style == theme.focusedField)
        #expect(terminal.buffer[0, 2].style == theme.field)
        app.send(.tab)
        #expect(terminal.buffer[0, 1].style == theme.field)
        #expect(terminal.buffer[0, 2].style == theme.focusedField)
    }

    @Test("A screen that focuses its second field when it loads shows one focused field, not the first one too")
    func oneFocusAtStart() throws {
        let a = TextField(text: "+1"), b = TextField()
        let screen = SecondFieldFirst([(a, .fixed(1)), (b, .fixed(1))], focusing: b)
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        #expect(b.isFocused)
        #expect(!a.isFocused)
        #expect(terminal.buffer[0, 1].style == app.theme.field)
        app.send(.backTab)
        #expect(a.isFocused && !b.isFocused)
    }
}

/// A form that puts the focus on a field of its choosing when it loads (as Log in does with the phone number).
@MainActor
private final class SecondFieldFirst: ViewController {
    let stack = VStack(spacing: 0)
    let first: View

    init(_ views: [(View, StackSize)], focusing first: View) {
        self.first = first
        super.init(title: "Form")
        for (view, size) in views {
            stack.add(view, size: size)
        }
    }

    override func viewDidLoad() {
        view.addSubview(stack)
        focus(first)
    }
}
