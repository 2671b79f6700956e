import Testing
@testable import TerminalUI

@Suite("Panels and stacks")
@MainActor
struct LayoutTests {
    @Test("A panel draws a titled border around its content")
    func panel() {
        let sut = Panel(title: "Card", content: Label("Visa •••• 4242"))
        #expect(render(sut, width: 20, height: 3) == [
            "┌─ Card ───────────┐",
            "│ Visa •••• 4242   │",
            "└──────────────────┘",
        ])
    }

    @Test("A panel uses ASCII borders when the locale is not UTF-8")
    func asciiPanel() {
        let sut = Panel(title: "Card", content: Label("x"))
        #expect(render(sut, width: 12, height: 3, theme: .monochrome(unicode: false)) == [
            "+- Card ---+",
            "| x        |",
            "+----------+",
        ])
    }

    @Test("A vertical stack gives fixed rows, fitted rows and shares the rest by weight")
    func verticalStack() {
        let sut = VStack(spacing: 0)
        let fixed = Label("fixed"), fit = Label("fit\nfit"), one = Label("one"), two = Label("two")
        sut.add(fixed, size: .fixed(1))
        sut.add(fit, size: .fit)
        sut.add(one, size: .flexible(1))
        sut.add(two, size: .flexible(2))
        _ = render(sut, width: 10, height: 12)
        #expect(fixed.frame == Rect(x: 0, y: 0, width: 10, height: 1))
        #expect(fit.frame == Rect(x: 0, y: 1, width: 10, height: 2))
        #expect(one.frame == Rect(x: 0, y: 3, width: 10, height: 3))
        #expect(two.frame == Rect(x: 0, y: 6, width: 10, height: 6))
    }

    @Test("A flexible view's minimum is kept before a fitted view takes the rest")
    func flexibleMinimum() {
        let sut = VStack(spacing: 0)
        let header = Label("header")
        let tall = Label((1...20).map(String.init).joined(separator: "\n"))
        let list = Label("list")
        sut.add(header, size: .fixed(1))
        sut.add(tall, size: .fit)
        sut.add(list, size: .fill)
        sut.setMinimum(3, for: list)
        _ = render(sut, width: 10, height: 10)
        #expect(tall.frame == Rect(x: 0, y: 1, width: 10, height: 6))
        #expect(list.frame == Rect(x: 0, y: 7, width: 10, height: 3))
        _ = render(sut, width: 10, height: 30)
        #expect(tall.frame.height == 20)
        #expect(list.frame == Rect(x: 0, y: 21, width: 10, height: 9))
    }

    @Test("A fixed row below a fitted view keeps its row when the fitted view wants everything")
    func fixedBeforeFit() {
        let sut = VStack(spacing: 0)
        let tall = Label((1...20).map(String.init).joined(separator: "\n"))
        let list = Label("list"), search = Label("search")
        sut.add(tall, size: .fit)
        sut.add(list, size: .fill)
        sut.add(search, size: .fixed(1))
        sut.setMinimum(3, for: list)
        _ = render(sut, width: 10, height: 10)
        #expect(tall.frame == Rect(x: 0, y: 0, width: 10, height: 6))
        #expect(list.frame == Rect(x: 0, y: 6, width: 10, height: 3))
        #expect(search.frame == Rect(x: 0, y: 9, width: 10, height: 1))
    }

    @Test("A horizontal stack lays out columns with spacing; hidden views take no room")
    func horizontalStack() {
        let sut = HStack(spacing: 1)
        let left = Label("left"), hidden = Label("hidden"), right = Label("right")
        hidden.isHidden = true
        sut.add(left, size: .fixed(6))
        sut.add(hidden, size: .fixed(6))
        sut.add(right, size: .fill)
        #expect(render(sut, width: 20, height: 1) == ["left   right"])
        #expect(right.frame == Rect(x: 7, y: 0, width: 13, height: 1))
    }

    @Test("Buttons show brackets and the focused one is highlighted; disabled ones cannot be focused")
    func buttons() {
        var pressed = 0
        let sut = Button("OK") { pressed += 1 }
        #expect(render(sut, width: 10, height: 1) == ["[ OK ]"])
        #expect(renderBuffer(sut, width: 10, height: 1, focused: true)[0, 0].style == Theme.colored().focusedButton)
        #expect(sut.handle(.enter))
        #expect(sut.handle(.character(" ")))
        #expect(pressed == 2)
        sut.isEnabled = false
        #expect(!sut.canFocus)
    }
}

@Suite("Form, status bar, spinner, banner and bar chart")
@MainActor
struct CompositeViewTests {
    @Test("A form lines up labels and shows an inline error under the field that has one")
    func formErrors() {
        let email = TextField(text: "ada")
        let phone = TextField(text: "123")
        let sut = Form(spacing: 0)
        sut.addField("Email", email)
        sut.addField("Phone", phone)
        #expect(render(sut, width: 30, height: 4) == ["Email  ada", "Phone  123", "", ""])
        sut.setError("Enter an email address.", for: email)
        #expect(render(sut, width: 30, height: 4) == ["Email  ada", "       Enter an email address.", "Phone  123", ""])
        #expect(sut.error(for: email) == "Enter an email address.")
        #expect(sut.sizeThatFits(Size(width: 30, height: 10)).height == 3)
        sut.clearErrors()
        #expect(sut.error(for: email) == nil)
        #expect(render(sut, width: 30, height: 3) == ["Email  ada", "Phone  123", ""])
    }

    @Test("A hidden form row takes no room, and the label column keeps its width")
    func formHiddenRow() {
        let last4 = TextField(text: "0005")
        let code = TextField(text: "123456")
        let sut = Form(spacing: 0)
        sut.addField("Last four digits", last4)
        sut.addField("Code", code)
        sut.setRowHidden(true, for: code)
        sut.setError("Enter the code.", for: code)
        #expect(render(sut, width: 40, height: 3) == ["Last four digits  0005", "", ""])
        #expect(sut.sizeThatFits(Size(width: 40, height: 10)).height == 1)
        sut.setRowHidden(false, for: code)
        #expect(render(sut, width: 40, height: 3) == ["Last four digits  0005", "Code              123456", "                  Enter the code."])
    }

    @Test("A form with less room than its rows scrolls to keep the focused field in view")
    func formScrollsToFocus() {
        let country = TextField(text: "+1"), phone = TextField(text: "202"), password = TextField(text: "pw")
        let sut = Form(spacing: 0)
        sut.addField("Country", country)
        sut.addField("Phone", phone)
        sut.addField("Password", password)
        sut.setError("Too short.", for: phone)
        #expect(render(sut, width: 30, height: 3) == ["Country   +1", "Phone     202", "          Too short."])
        password.isFocused = true
        #expect(render(sut, width: 30, height: 3, focused: false) == ["Phone     202", "          Too short.", "Password  pw"])
        #expect(password.frame == Rect(x: 10, y: 2, width: 20, height: 1))
    }

    @Test("The status bar lists key hints from bindings and cuts what does not fit")
    func statusBar() {
        let sut = StatusBar()
        sut.hints = [KeyBinding(.enter, "open") {}, KeyBinding(.character("r"), "refresh") {}, KeyBinding(.escape, "back") {}]
        #expect(render(sut, width: 40, height: 1) == [" Enter open  r refresh  Esc back"])
        #expect(render(sut, width: 24, height: 1) == [" Enter open  r refresh"])
        sut.message = "Saved"
        #expect(render(sut, width: 40, height: 1) == [" Enter open  r refresh  Esc back  Saved"])
    }

    @Test("The trailing hints stay when the line is too narrow: the screen's own hints give way from the last")
    func statusBarTrailingHints() {
        let sut = StatusBar()
        sut.hints = [KeyBinding(.enter, "open") {}, KeyBinding(.character("r"), "refresh") {}]
        sut.trailingHints = [.described([.escape], "back"), .described([.character("?")], "help")]
        #expect(sut.hintText == "Enter open  r refresh  Esc back  ? help")
        #expect(render(sut, width: 40, height: 1) == [" Enter open  r refresh  Esc back  ? help"])
        #expect(render(sut, width: 39, height: 1) == [" Enter open  Esc back  ? help"])
        #expect(render(sut, width: 29, height: 1) == [" Enter open  Esc back  ? help"])
        #expect(render(sut, width: 28, height: 1) == [" Esc back  ? help"])
        #expect(render(sut, width: 12, height: 1) == [" Esc back"])
        sut.message = "Saved"
        #expect(render(sut, width: 37, height: 1) == [" Enter open  Esc back  ? help  Saved"])
    }

    @Test("A spinner is hidden until started, animates while running, and hides when stopped")
    func spinner() {
        let sut = Spinner("Loading")
        #expect(!sut.isAnimating)
        sut.start()
        #expect(sut.isAnimating)
        #expect(render(sut, width: 20, height: 1) == ["⠋ Loading"])
        sut.tick()
        #expect(render(sut, width: 20, height: 1) == ["⠙ Loading"])
        #expect(render(sut, width: 20, height: 1, theme: .monochrome(unicode: false)) == ["/ Loading"])
        sut.stop()
        #expect(sut.isHidden)
        #expect(!sut.isAnimating)
    }

    @Test("A banner shows info and error messages across the width and hides when cleared")
    func banner() {
        let sut = Banner()
        #expect(sut.isHidden)
        sut.show("Could not reach the server.", kind: .error)
        let buffer = renderBuffer(sut, width: 32, height: 1)
        #expect(buffer.lines == [" ! Could not reach the server."])
        #expect(buffer[31, 0].style == Theme.colored().error)
        sut.show("Card added.", kind: .success)
        #expect(render(sut, width: 32, height: 1) == [" ✓ Card added."])
        sut.clear()
        #expect(sut.isHidden)
    }

    @Test("A bar chart scales bars to the largest value")
    func barChart() {
        let sut = BarChart(entries: [.init("Rent", 100), .init("Fun", 50), .init("Zero", 0)])
        #expect(render(sut, width: 20, height: 3) == [
            "Rent ██████████ 100",
            "Fun  █████ 50",
            "Zero  0",
        ])
        #expect(render(sut, width: 20, height: 3, theme: .monochrome(unicode: false))[1] == "Fun  ##### 50")
    }
}
