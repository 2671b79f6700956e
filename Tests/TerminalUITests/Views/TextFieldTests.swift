import Testing
@testable import TerminalUI

@Suite("Text field")
@MainActor
struct TextFieldTests {
    @Test("Typing inserts at the cursor, which can move anywhere")
    func insertAnywhere() {
        let sut = TextField()
        for key in "helo".map({ Key.character($0) }) { _ = sut.handle(key) }
        _ = sut.handle(.left)
        _ = sut.handle(.character("l"))
        #expect(sut.text == "hello")
        #expect(sut.cursor == 4)
        _ = sut.handle(.home)
        _ = sut.handle(.character(">"))
        _ = sut.handle(.end)
        _ = sut.handle(.character("!"))
        #expect(sut.text == ">hello!")
    }

    @Test("? is left to the screen (help); Ctrl-V then ? types it, and only the next key")
    func questionMarkNeedsCtrlV() {
        let sut = TextField(text: "why")
        #expect(sut.handle(.character("?")) == false)
        #expect(sut.text == "why")
        #expect(sut.handle(.ctrl("v")))
        #expect(sut.typesNextLiterally)
        #expect(sut.handle(.character("?")))
        #expect(sut.text == "why?")
        #expect(!sut.typesNextLiterally)
        #expect(sut.handle(.character("?")) == false)
        // Ctrl-V before a key that is not a character: that key does what it does.
        _ = sut.handle(.ctrl("v"))
        _ = sut.handle(.backspace)
        #expect(sut.text == "why")
        #expect(!sut.typesNextLiterally)
    }

    @Test("Backspace and Delete remove before and at the cursor")
    func deletion() {
        let sut = TextField(text: "abcd")
        _ = sut.handle(.left)
        _ = sut.handle(.backspace)
        #expect(sut.text == "abd")
        _ = sut.handle(.delete)
        #expect(sut.text == "ab")
        _ = sut.handle(.home)
        _ = sut.handle(.backspace)
        #expect(sut.text == "ab")
    }

    @Test("Ctrl-A and Ctrl-E jump, Ctrl-U and Ctrl-K delete to the start and end, Ctrl-W deletes a word")
    func emacsKeys() {
        let sut = TextField(text: "one two three")
        _ = sut.handle(.ctrl("w"))
        #expect(sut.text == "one two ")
        _ = sut.handle(.ctrl("a"))
        #expect(sut.cursor == 0)
        _ = sut.handle(.ctrl("e"))
        #expect(sut.cursor == 8)
        sut.moveCursor(to: 3)
        _ = sut.handle(.ctrl("k"))
        #expect(sut.text == "one")
        sut.text = "alpha beta"
        sut.moveCursor(to: 6)
        _ = sut.handle(.ctrl("u"))
        #expect(sut.text == "beta")
        #expect(sut.cursor == 0)
    }

    @Test("The maximum length stops typing and pasting")
    func maxLength() {
        let sut = TextField(maxLength: 3)
        _ = sut.handle(.paste("abcdef"))
        _ = sut.handle(.character("z"))
        #expect(sut.text == "abc")
    }

    @Test("The input filter keeps only accepted characters but still consumes the key")
    func filter() {
        let sut = TextField()
        sut.inputFilter = TextField.digitsOnly
        #expect(sut.handle(.character("q")))
        _ = sut.handle(.paste("12-34 x5"))
        #expect(sut.text == "12345")
    }

    @Test("Digits are grouped in fours as typed, with the cursor after the last digit")
    func groupingInFours() {
        let sut = TextField(maxLength: 16)
        sut.inputFilter = TextField.digitsOnly
        sut.formatter = .grouping([4, 4, 4, 4])
        for digit in "42424" { _ = sut.handle(.character(digit)) }
        #expect(render(sut, width: 24, height: 1) == ["4242 4"])
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 6)
        for digit in "24242424242" { _ = sut.handle(.character(digit)) }
        #expect(render(sut, width: 24, height: 1) == ["4242 4242 4242 4242"])
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 19)
    }

    @Test("Group sizes may depend on the text typed so far")
    func groupsFromText() {
        let sut = TextField(text: "378282246310005")
        sut.formatter = TextFormatter { raw in raw.hasPrefix("3") ? [4, 6, 5] : [4, 4, 4, 4] }
        #expect(render(sut, width: 24, height: 1) == ["3782 822463 10005"])
        sut.text = "4242424242424242"
        #expect(render(sut, width: 24, height: 1) == ["4242 4242 4242 4242"])
    }

    @Test("Editing inside a grouped number keeps the cursor by the digit the user was at")
    func cursorInsideGroups() {
        let sut = TextField(text: "42424242")
        sut.formatter = .grouping([4, 4, 4, 4])
        sut.moveCursor(to: 4)
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 5)
        _ = sut.handle(.character("9"))
        #expect(sut.text == "424294242")
        #expect(sut.displayLayout(glyphs: .unicode).text == "4242 9424 2")
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 6)
        _ = sut.handle(.backspace)
        _ = sut.handle(.backspace)
        #expect(sut.displayLayout(glyphs: .unicode).text == "4244 242")
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 3)
    }

    @Test("An expiry is shown as MM/YY")
    func expiry() {
        let sut = TextField(text: "1228")
        sut.formatter = .grouping([2, 2], separator: "/")
        #expect(render(sut, width: 8, height: 1) == ["12/28"])
    }

    @Test("Long text scrolls horizontally to keep the cursor visible")
    func horizontalScroll() {
        let sut = TextField(text: "abcdefghijklmnop")
        #expect(render(sut, width: 6, height: 1, focused: true) == ["lmnop"])
        sut.moveCursor(to: 0)
        #expect(render(sut, width: 6, height: 1, focused: true) == ["abcdef"])
        sut.moveCursor(to: 8)
        #expect(render(sut, width: 6, height: 1, focused: true) == ["defghi"])
        sut.moveCursor(to: 12)
        #expect(render(sut, width: 6, height: 1, focused: true) == ["hijklm"])
    }

    @Test("The focused field draws its cursor as a reverse-video cell; an empty one shows its placeholder")
    func cursorAndPlaceholder() {
        let sut = TextField(placeholder: "name")
        #expect(render(sut, width: 8, height: 1) == ["name"])
        sut.text = "ab"
        sut.moveCursor(to: 1)
        let buffer = renderBuffer(sut, width: 8, height: 1, focused: true)
        #expect(buffer[1, 0].style == Theme.colored().cursor)
        #expect(buffer[0, 0].style != Theme.colored().cursor)
    }

    @Test("onChange reports the raw text and Enter calls onSubmit only when set")
    func hooks() {
        let sut = TextField()
        sut.formatter = .grouping([4, 4, 4, 4])
        var changes: [String] = []
        sut.onChange = { changes.append($0) }
        #expect(!sut.handle(.enter))
        var submitted = false
        sut.onSubmit = { submitted = true }
        for digit in "42424" { _ = sut.handle(.character(digit)) }
        #expect(sut.handle(.enter))
        #expect(submitted)
        #expect(changes.last == "42424")
        #expect(changes.count == 5)
    }

    @Test("Wide characters are edited as whole graphemes")
    func wideEditing() {
        let sut = TextField(text: "漢👨‍👩‍👧x")
        _ = sut.handle(.left)
        _ = sut.handle(.backspace)
        #expect(sut.text == "漢x")
        #expect(sut.displayLayout(glyphs: .unicode).cursorColumn == 2)
    }
}

@Suite("Secure field")
@MainActor
struct SecureFieldTests {
    @Test("Shows one bullet per character and never the text")
    func bullets() {
        let sut = SecureField()
        for c in "hunter2" { _ = sut.handle(.character(c)) }
        let lines = render(sut, width: 12, height: 1, focused: true)
        #expect(lines == ["•••••••"])
        #expect(sut.text == "hunter2")
        #expect(render(sut, width: 12, height: 1, theme: .monochrome(unicode: false)) == ["*******"])
    }

    @Test("Clearing overwrites the stored characters before emptying the storage")
    func wipes() {
        let sut = SecureField(text: "secret")
        let capacity = sut.storage.capacity
        sut.clear()
        #expect(sut.text.isEmpty)
        #expect(sut.storage.isEmpty)
        #expect(sut.storage.capacity == capacity)
        let leftovers = sut.storage.withUnsafeBufferPointer { buffer in
            UnsafeBufferPointer(start: buffer.baseAddress, count: 6).map { $0 }
        }
        #expect(leftovers.allSatisfy { $0 == "\0" })
    }

    @Test("Deleting characters leaves no copy behind in the freed slots")
    func deletionWipes() {
        let sut = SecureField(text: "abc")
        _ = sut.handle(.backspace)
        let slots = sut.storage.withUnsafeBufferPointer { buffer in
            UnsafeBufferPointer(start: buffer.baseAddress, count: 3).map { $0 }
        }
        #expect(slots == ["a", "b", "\0"])
    }

    @Test("a field with a visible suffix shows only its last characters while unfocused, all of them while focused")
    func visibleSuffixWhenUnfocused() {
        let sut = TextField(text: "4242424242424242")
        sut.formatter = .grouping([4, 4, 4, 4])
        sut.visibleSuffixWhenUnfocused = 4
        #expect(sut.visibleText(width: 30) == "•••• •••• •••• 4242")
        sut.isFocused = true
        #expect(sut.visibleText(width: 30) == "4242 4242 4242 4242")
        sut.isFocused = false
        sut.text = "424"
        #expect(sut.visibleText(width: 30) == "424")
        #expect(sut.text == "424")
    }
}
