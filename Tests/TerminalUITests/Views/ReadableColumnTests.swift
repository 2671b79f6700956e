import Testing
@testable import TerminalUI

@Suite("A readable column and the button that acts")
@MainActor
struct ReadableColumnTests {
    @Test("On a wide screen the content is laid out at the column's width, centred, full height")
    func centredOnWide() {
        let content = Label("x")
        let sut = ReadableColumn(maxWidth: 60, content: content)
        _ = render(sut, width: 150, height: 10)
        #expect(content.frame == Rect(x: 45, y: 0, width: 60, height: 10))
    }

    @Test("On a screen narrower than the column the content has all of its width")
    func fillsWhenNarrow() {
        let content = Label("x")
        let sut = ReadableColumn(maxWidth: 60, content: content)
        _ = render(sut, width: 40, height: 5)
        #expect(content.frame == Rect(x: 0, y: 0, width: 40, height: 5))
    }

    @Test("A form's fields end at the column's edge, not the screen's")
    func formFieldsStayInColumn() {
        let field = TextField(text: "12.50")
        let form = Form()
        form.addField("Amount", field)
        let sut = ReadableColumn(maxWidth: 30, content: form)
        let buffer = renderBuffer(sut, width: 100, height: 3)
        #expect(field.frame.maxX <= 30)
        #expect(buffer[64, 0].style == Theme.colored().field)
        #expect(buffer[65, 0].style != Theme.colored().field)
        #expect(render(sut, width: 100, height: 1)[0].hasPrefix(String(repeating: " ", count: 35) + "Amount  12.50"))
    }

    @Test("The primary button is drawn in the theme's primary style while unfocused, the focused style when focused")
    func primaryButton() {
        let theme = Theme.colored256()
        let primary = Button("Send $5.00", isPrimary: true)
        let plain = Button("Change")
        #expect(renderBuffer(primary, width: 20, height: 1, theme: theme)[0, 0].style == theme.primaryButton)
        #expect(renderBuffer(plain, width: 20, height: 1, theme: theme)[0, 0].style == theme.button)
        #expect(renderBuffer(primary, width: 20, height: 1, focused: true, theme: theme)[0, 0].style == theme.focusedButton)
        #expect(theme.primaryButton != theme.button)
        #expect(Theme.monochrome().primaryButton != Theme.monochrome().button)
    }
}
