import Testing
@testable import TerminalUI

@Suite("Covering the stack, focus reports, secrets")
@MainActor
struct CoverTests {
    private func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8)) + decoder.flushPending()
    }

    @Test("Focus in and out (CSI I, CSI O) decode as focus events, split or not")
    func focusDecoding() {
        #expect(decode("\u{1B}[Ia\u{1B}[O") == [.focus(true), .character("a"), .focus(false)])
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.decode([UInt8(ascii: "O")]) == [.focus(false)])
        #expect(decode("\u{1B}OP") == [.function(1)])
    }

    @Test("A focus report reaches onFocusChange once per change, never the screen, onKeyPress or the help overlay")
    func focusReachesOnlyTheApplication() throws {
        let field = TextField()
        let screen = StackScreen("Form", [(field, .fixed(1))])
        let (app, _) = try makeApp(NavigationController(root: screen))
        var changes: [Bool] = []
        var keys: [Key] = []
        app.onFocusChange = { changes.append($0) }
        app.onKeyPress = { keys.append($0) }
        app.send(.function(1))
        app.process(Array("\u{1B}[O\u{1B}[O\u{1B}[I".utf8))
        #expect(changes == [false, true])
        #expect(app.isTerminalFocused)
        #expect(app.isHelpVisible)
        #expect(keys == [.function(1)])
        app.send(.escape)
        app.type("x")
        #expect(field.text == "x")
        #expect(keys == [.function(1), .escape, .character("x")])
    }

    @Test("A cover is drawn instead of the stack and its modals, takes the keys and the help, and uncovering restores all")
    func coverAndUncover() throws {
        let log = EventLog()
        let field = TextField()
        let root = StackScreen("Account 4242", [(Label("Balance 1,234"), .fixed(1)), (field, .fixed(1))])
        let sut = NavigationController(root: root)
        let (app, terminal) = try makeApp(sut)
        app.type("typed")
        let modal = LifecycleSpy("Modal secret", log: log)
        sut.present(modal)
        _ = log.take()
        let coverField = TextField()
        let cover = StackScreen("Locked", [(coverField, .fixed(1))])
        cover.keyBindings = [KeyBinding(.ctrl("o"), "leave") {}]

        sut.cover(with: cover)
        app.render()
        #expect(log.take() == ["Modal secret.willDisappear", "Modal secret.didDisappear"])
        #expect(sut.visibleViewController === cover)
        #expect(!sut.canGoBack)
        let screen = terminal.lines.joined(separator: "\n")
        #expect(terminal.lines[0].hasPrefix(" Locked"))
        for hidden in ["Account", "Balance", "typed", "Modal"] {
            #expect(!screen.contains(hidden), "the cover lets “\(hidden)” through")
        }
        #expect(app.helpBindings.map(\.help).contains("leave"))
        #expect(!app.helpBindings.map(\.help).contains("back"))
        app.send(.escape)
        #expect(sut.coveringViewController === cover)
        app.type("pw")
        #expect(coverField.text == "pw")
        #expect(field.text == "typed")

        #expect(sut.uncover() === cover)
        #expect(log.take() == ["Modal secret.willAppear", "Modal secret.didAppear"])
        #expect(sut.visibleViewController === modal)
        sut.dismiss()
        app.render()
        #expect(root.focusedView === field)
        #expect(terminal.lines.joined(separator: "\n").contains("Balance 1,234"))
        app.type("!")
        #expect(field.text == "typed!")
    }

    @Test("clearSecrets empties secure fields and fields marked secret, and leaves the others")
    func clearSecrets() {
        let stack = VStack(spacing: 0)
        let password = SecureField(text: "hunter2")
        let number = TextField(text: "4242")
        number.isSecret = true
        let name = TextField(text: "Sam")
        stack.add(password, size: .fixed(1))
        stack.add(number, size: .fixed(1))
        stack.add(name, size: .fixed(1))
        stack.clearSecrets()
        #expect(password.text.isEmpty)
        #expect(number.text.isEmpty)
        #expect(name.text == "Sam")
    }
}
