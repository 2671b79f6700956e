import Testing
@testable import TerminalUI

/// Issue 42, point 11: a show-password toggle. The field shows what was typed only while the person asks for it.
@Suite("Secure field, shown on request")
@MainActor
struct SecureFieldRevealTests {
    func typed(_ text: String) -> SecureField {
        let sut = SecureField()
        sut.isFocused = true
        for c in text { _ = sut.handle(.character(c)) }
        return sut
    }

    @Test("the toggle shows the typed password while focused, and the next toggle hides it")
    func toggles() {
        let sut = typed("hunter2")
        sut.toggleRevealed()
        #expect(sut.isRevealed)
        #expect(sut.visibleText(width: 12) == "hunter2")
        sut.toggleRevealed()
        #expect(!sut.isRevealed)
        #expect(sut.visibleText(width: 12) == "•••••••")
    }

    @Test("leaving the field hides it, and coming back does not show it again")
    func leaving() {
        let sut = typed("hunter2")
        sut.toggleRevealed()
        sut.isFocused = false
        #expect(!sut.isRevealed)
        #expect(sut.visibleText(width: 12) == "•••••••")
        sut.isFocused = true
        #expect(sut.visibleText(width: 12) == "•••••••")
    }

    @Test("a field without the focus is never shown")
    func unfocused() {
        let sut = SecureField(text: "hunter2")
        sut.toggleRevealed()
        #expect(!sut.isRevealed)
    }

    @Test("clearing, and clearing the secrets of a screen (a lock), hides it, an empty field too")
    func clearing() {
        let sut = typed("hunter2")
        sut.toggleRevealed()
        sut.clear()
        #expect(!sut.isRevealed)
        sut.toggleRevealed()
        let screen = VStack()
        screen.add(sut)
        screen.clearSecrets()
        #expect(!sut.isRevealed)
        let shown = typed("x")
        shown.toggleRevealed()
        screen.add(shown)
        screen.clearSecrets()
        #expect(!shown.isRevealed && shown.text.isEmpty)
    }
}
