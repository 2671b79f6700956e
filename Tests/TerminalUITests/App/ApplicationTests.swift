import Testing
@testable import TerminalUI

/// A screen whose key starts async work that updates a label, as a wallet scene does after a network call.
@MainActor
final class LoadingScreen: ViewController {
    let label = Label("Idle")
    let spinner = Spinner("Loading")
    var load: @MainActor () async -> String = { "Loaded" }

    override func viewDidLoad() {
        let stack = VStack()
        stack.add(label, size: .fixed(1))
        stack.add(spinner, size: .fixed(1))
        view.addSubview(stack)
        keyBindings = [KeyBinding(.character("l"), "load") { [weak self] in self?.start() }]
    }

    func start() {
        spinner.start()
        task { [weak self] in
            guard let self else { return }
            let text = await self.load()
            self.label.text = text
            self.spinner.stop()
        }
    }
}

@Suite("Application", .timeLimit(.minutes(3)))
@MainActor
struct ApplicationTests {
    @Test("Async work started from a key updates the screen once settled")
    func asyncWork() async throws {
        let screen = LoadingScreen(title: "Load")
        screen.load = {
            await Task.yield()
            return "Balance 12.00"
        }
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 40, height: 12)
        #expect(terminal.lines[1] == "Idle")
        app.send(.character("l"))
        #expect(terminal.lines[2] == "⠋ Loading")
        #expect(app.isAnimating)
        await app.settle()
        #expect(terminal.lines[1] == "Balance 12.00")
        #expect(terminal.lines[2] == "")
        #expect(!app.isAnimating)
    }

    @Test("onFirstFrame is called once, with the first frame already on the terminal")
    func firstFrameHook() async throws {
        let screen = LoadingScreen(title: "Load")
        let terminal = HeadlessTerminal(width: 40, height: 12, capabilities: .init(hasColor: true, isUnicode: true))
        let app = Application(terminal: terminal, rootViewController: NavigationController(root: screen))
        var seen: [(presented: Int, line: String)] = []
        app.onFirstFrame = { seen.append((terminal.presentCount, terminal.lines[1])) }
        #expect(seen.isEmpty)
        try app.start()
        #expect(seen.count == 1)
        #expect(seen.first?.presented == 1)
        #expect(seen.first?.line == "Idle")
        app.send(.character("l"))
        await app.settle()
        #expect(terminal.presentCount > 1)
        #expect(seen.count == 1)
    }

    @Test("Nothing is drawn while nothing changes")
    func idleDrawsNothing() async throws {
        let (app, terminal) = try makeApp(NavigationController(root: ViewController(title: "Idle")))
        await app.settle()
        let frames = terminal.presentCount
        for _ in 0..<20 {
            await Task.yield()
        }
        try await Task.sleep(nanoseconds: 150_000_000)
        #expect(terminal.presentCount == frames)
        #expect(!app.isAnimating)
    }

    @Test("Many changes in one turn are drawn as one frame")
    func coalescing() async throws {
        let screen = LoadingScreen(title: "Load")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        let frames = terminal.presentCount
        for n in 0..<50 {
            screen.label.text = "Step \(n)"
        }
        await app.settle()
        #expect(terminal.presentCount == frames + 1)
        #expect(terminal.lines[1] == "Step 49")
    }

    @Test("A running spinner advances on each tick")
    func spinnerTicks() throws {
        let screen = LoadingScreen(title: "Load")
        let (app, terminal) = try makeApp(NavigationController(root: screen))
        screen.spinner.start()
        app.render()
        #expect(terminal.lines[2] == "⠋ Loading")
        app.tick()
        #expect(terminal.lines[2] == "⠙ Loading")
    }

    @Test("Below 40×12 the screen says the terminal is too small, ignores keys, and recovers when enlarged")
    func tooSmall() throws {
        let sut = NavigationController(root: ViewController(title: "Home"))
        let (app, terminal) = try makeApp(sut, width: 60, height: 16)
        terminal.resize(width: 30, height: 8)
        app.send(.resize)
        #expect(terminal.lines == ["", "", "", "      Terminal too small", "    need 40×12, have 30×8", "", "", ""])
        app.send(.character("q"))
        #expect(app.exitStatus == nil)
        terminal.resize(width: 40, height: 12)
        app.send(.resize)
        #expect(terminal.lines.first == " Home")
        #expect(terminal.lines.count == 12)
        #expect(!terminal.text.contains("Terminal too small"))
    }

    @Test("Resizing lays the screen out again at the new size")
    func resizeRelayout() throws {
        let field = TextField(text: "x")
        let screen = StackScreen("Form", [(Panel(title: "Box", content: field), .fill)])
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 50, height: 12)
        #expect(terminal.lines[1].hasSuffix("┐"))
        #expect(terminal.lines[1].displayWidth == 50)
        terminal.resize(width: 70, height: 20)
        app.send(.resize)
        #expect(terminal.lines[1].displayWidth == 70)
        #expect(terminal.lines[18].hasPrefix("└"))
    }

    @Test("? shows every key of the screen and any key closes it")
    func helpOverlay() throws {
        let screen = ViewController(title: "Home")
        screen.keyBindings = [KeyBinding(.character("r"), "refresh") {}, KeyBinding(.ctrl("l"), "log out", showsInStatusBar: false) {}]
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 60, height: 16)
        app.send(.character("?"))
        #expect(app.isHelpVisible)
        let text = terminal.text
        #expect(text.contains("Keys: Home"))
        #expect(text.contains("r      refresh"))
        #expect(text.contains("Ctrl-L log out"))
        #expect(text.contains("?/F1   show this help"))
        #expect(text.contains("Ctrl-C quit"))
        app.send(.character("x"))
        #expect(!app.isHelpVisible)
        #expect(!terminal.text.contains("Keys: Home"))
    }

    @Test("? in a focused text field shows the help, which lists Ctrl-V; Ctrl-V ? types it")
    func helpFromATextField() throws {
        let field = TextField()
        let screen = StackScreen("Form", [(Panel(title: "Box", content: field), .fill)])
        let (app, terminal) = try makeApp(NavigationController(root: screen), width: 70, height: 20)
        app.send(.character("a"))
        app.send(.character("?"))
        #expect(app.isHelpVisible)
        #expect(terminal.text.contains("then ?: type a question mark"))
        #expect(field.text == "a")
        app.send(.escape)
        #expect(!app.isHelpVisible)
        app.send(.ctrl("v"))
        app.send(.character("?"))
        #expect(!app.isHelpVisible)
        #expect(field.text == "a?")
    }

    @Test("q quits from the top-level screen only; Ctrl-C always quits with 130")
    func quitting() throws {
        let sut = NavigationController(root: ViewController(title: "Home"))
        let (app, terminal) = try makeApp(sut)
        sut.push(ViewController(title: "Deeper"))
        app.send(.character("q"))
        #expect(app.exitStatus == nil)
        app.send(.ctrl("c"))
        #expect(app.exitStatus == 130)
        #expect(!terminal.isStarted)

        let (second, _) = try makeApp(NavigationController(root: ViewController(title: "Home")))
        second.send(.character("q"))
        #expect(second.exitStatus == 0)
    }

    @Test("Typed bytes are decoded through the terminal's input, Esc after a short delay")
    func typedBytes() async throws {
        let field = TextField()
        let screen = StackScreen("Form", [(field, .fixed(1))])
        let sut = NavigationController(root: screen)
        let (app, terminal) = try makeApp(sut)
        terminal.type(Array("héllo\u{1B}[D\u{7F}".utf8))
        app.processPendingInput()
        #expect(field.text == "hélo")
        sut.push(ViewController(title: "Next"))
        terminal.type([0x1B])
        app.processPendingInput()
        #expect(sut.viewControllers.count == 2)
        // The lone Esc is flushed by a 25 ms timer; on a loaded machine it may fire late, so wait for it (up to 5 s)
        // rather than for a fixed time.
        let deadline = ContinuousClock.now + .seconds(5)
        repeat {
            try await Task.sleep(for: .milliseconds(20))
            await app.settle()
        } while sut.viewControllers.count == 2 && ContinuousClock.now < deadline
        #expect(sut.viewControllers.count == 1)
    }

    @Test("a theme choice: monochrome on a colour terminal has no colour; color has it even under NO_COLOR, but not without colours")
    func themeChoice() throws {
        let (mono, _) = try makeApp(ViewController(), themeChoice: .monochrome)
        #expect(!mono.theme.usesColor)
        let (color, _) = try makeApp(ViewController(), environment: ["NO_COLOR": "1"], themeChoice: .color)
        #expect(color.theme.usesColor)
        let (noColors, _) = try makeApp(ViewController(), capabilities: .init(hasColor: false, isUnicode: true), themeChoice: .color)
        #expect(!noColors.theme.usesColor)
    }

    @Test("NO_COLOR and monochrome terminals get the monochrome theme; non-UTF-8 gets ASCII borders")
    func themes() throws {
        let (colored, _) = try makeApp(ViewController())
        #expect(colored.theme.usesColor)
        let (noColor, _) = try makeApp(ViewController(), environment: ["NO_COLOR": "1"])
        #expect(!noColor.theme.usesColor)
        let (mono, _) = try makeApp(ViewController(), capabilities: .init(hasColor: false, isUnicode: true))
        #expect(!mono.theme.usesColor)
        let panel = StackScreen("Box", [(Panel(title: "T", content: Label("x")), .fill)])
        let (ascii, terminal) = try makeApp(panel, width: 40, height: 12, capabilities: .init(hasColor: true, isUnicode: false))
        #expect(ascii.theme.glyphs == .ascii)
        #expect(terminal.lines[0].hasPrefix("+- T -"))
        #expect(terminal.lines[1].hasPrefix("| x"))
    }

    @Test("TERM=dumb and unknown terminals are refused with a clear message")
    func refusedTerminals() {
        #expect(TerminalError.unsupported(term: "dumb").description.contains("TERM=dumb cannot move the cursor"))
        #expect(TerminalError.unknown(term: "vt999").description.contains("No terminfo description for TERM=vt999"))
    }
}
