import Testing
@testable import TerminalUI

@Suite("Key decoding")
struct KeyDecoderTests {
    private func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8)) + decoder.flushPending()
    }

    @Test("Printable text, including non-ASCII and emoji, arrives as characters")
    func text() {
        #expect(decode("aé漢👍🏽") == [.character("a"), .character("é"), .character("漢"), .character("👍🏽")])
    }

    @Test("Arrows decode in normal and application cursor mode")
    func arrows() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    }

    @Test("Tab, Shift-Tab, Enter, Backspace, Delete, Home, End, PageUp and PageDown decode")
    func editingKeys() {
        #expect(decode("\t\u{1B}[Z\r\u{7F}\u{8}") == [.tab, .backTab, .enter, .backspace, .backspace])
        #expect(decode("\u{1B}[3~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}OF")
            == [.delete, .home, .end, .home, .end, .pageUp, .pageDown, .home, .end])
    }

    @Test("F1 to F12 decode from SS3 and CSI forms")
    func functionKeys() {
        let sequences = ["\u{1B}OP", "\u{1B}OQ", "\u{1B}OR", "\u{1B}OS", "\u{1B}[15~", "\u{1B}[17~", "\u{1B}[18~",
                         "\u{1B}[19~", "\u{1B}[20~", "\u{1B}[21~", "\u{1B}[23~", "\u{1B}[24~"]
        #expect(decode(sequences.joined()) == (1...12).map { Key.function($0) })
    }

    @Test("Ctrl-letters decode, except the ones that are Tab, Enter and Backspace")
    func controlLetters() {
        #expect(decode("\u{1}\u{5}\u{15}\u{17}\u{B}\u{3}\u{1A}") == [.ctrl("a"), .ctrl("e"), .ctrl("u"), .ctrl("w"), .ctrl("k"), .ctrl("c"), .ctrl("z")])
    }

    @Test("A lone Esc waits for more bytes and becomes Escape when flushed")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flushPending() == [.escape])
        #expect(!decoder.hasPendingInput)
    }

    @Test("A sequence split across reads is joined")
    func splitSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.decode([UInt8(ascii: "A")]) == [.up])
        let bytes = Array("é".utf8)
        #expect(decoder.decode([bytes[0]]).isEmpty)
        #expect(decoder.decode([bytes[1]]) == [.character("é")])
    }

    @Test("Bracketed paste arrives as one paste event, even across reads")
    func paste() {
        var decoder = KeyDecoder()
        let first = decoder.decode(Array("x\u{1B}[200~hello\r\nwor".utf8))
        #expect(first == [.character("x")])
        let second = decoder.decode(Array("ld\u{1B}[20".utf8))
        #expect(second.isEmpty)
        #expect(decoder.decode(Array("1~y".utf8)) == [.paste("hello\nworld"), .character("y")])
    }

    @Test("Unknown sequences are dropped instead of typed")
    func unknown() {
        #expect(decode("\u{1B}[99xq") == [.character("q")])
    }

    @Test("Keys have short labels for hints")
    func labels() {
        #expect(Key.ctrl("u").label == "Ctrl-U")
        #expect(Key.up.label == "↑")
        #expect(Key.function(5).label == "F5")
        #expect(Key.character(" ").label == "Space")
        #expect(KeyBinding([.up, .character("k")], "up") {}.keyLabel == "↑/k")
    }
}

@Suite("Key bindings")
@MainActor
struct KeyBindingTests {
    @Test("Dispatch runs the first matching binding; described bindings never consume their keys")
    func dispatch() {
        var ran: [String] = []
        let bindings = [
            KeyBinding.described([.escape], "back"),
            KeyBinding([.character("r"), .ctrl("r")], "refresh") { ran.append("refresh") },
            KeyBinding(.character("r"), "shadowed") { ran.append("shadowed") },
        ]
        #expect(!bindings.dispatch(.escape))
        #expect(bindings.dispatch(.ctrl("r")))
        #expect(bindings.dispatch(.character("r")))
        #expect(!bindings.dispatch(.character("x")))
        #expect(ran == ["refresh", "refresh"])
    }
}
