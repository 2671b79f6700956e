import Testing
@testable import TerminalUI

@Suite("Mouse report decoding")
struct MouseDecodingTests {
    private func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8)) + decoder.flushPending()
    }

    private func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, _ modifiers: MouseEvent.Modifiers = []) -> Key {
        .mouse(MouseEvent(kind, at: Point(x: x, y: y), modifiers: modifiers))
    }

    @Test("SGR presses and releases of each button decode with 0-based coordinates")
    func buttons() {
        #expect(decode("\u{1B}[<0;1;1M\u{1B}[<0;1;1m") == [mouse(.press(.left), 0, 0), mouse(.release(.left), 0, 0)])
        #expect(decode("\u{1B}[<1;10;5M\u{1B}[<1;10;5m") == [mouse(.press(.middle), 9, 4), mouse(.release(.middle), 9, 4)])
        #expect(decode("\u{1B}[<2;300;200M\u{1B}[<2;300;200m") == [mouse(.press(.right), 299, 199), mouse(.release(.right), 299, 199)])
    }

    @Test("Motion with a button held is a drag; motion without one is a move")
    func motion() {
        #expect(decode("\u{1B}[<32;4;2M\u{1B}[<34;4;3M\u{1B}[<35;7;8M")
            == [mouse(.drag(.left), 3, 1), mouse(.drag(.right), 3, 2), mouse(.move, 6, 7)])
    }

    @Test("The wheel decodes up and down; horizontal wheel and extra buttons are dropped")
    func wheel() {
        #expect(decode("\u{1B}[<64;3;4M\u{1B}[<65;3;4M") == [mouse(.wheelUp, 2, 3), mouse(.wheelDown, 2, 3)])
        #expect(decode("\u{1B}[<66;3;4M\u{1B}[<67;3;4M\u{1B}[<128;3;4Mq") == [.character("q")])
    }

    @Test("Shift, Alt and Ctrl come through as modifiers")
    func modifiers() {
        #expect(decode("\u{1B}[<4;2;2M\u{1B}[<8;2;2M\u{1B}[<16;2;2M\u{1B}[<28;2;2M\u{1B}[<81;2;2M") == [
            mouse(.press(.left), 1, 1, .shift), mouse(.press(.left), 1, 1, .alt), mouse(.press(.left), 1, 1, .control),
            mouse(.press(.left), 1, 1, [.shift, .alt, .control]), mouse(.wheelDown, 1, 1, .control),
        ])
    }

    @Test("Legacy X10 reports (no mode 1006) decode too, and their bytes are never typed")
    func legacy() {
        #expect(decode("\u{1B}[M !!\u{1B}[M#+%x") == [mouse(.press(.left), 0, 0), mouse(.release(.left), 10, 4), .character("x")])
        #expect(decode("\u{1B}[Ma,-") == [mouse(.wheelDown, 11, 12)])
    }

    @Test("A report split across reads is joined")
    func split() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("a\u{1B}[<65;1".utf8)) == [.character("a")])
        #expect(decoder.hasPendingInput)
        #expect(decoder.decode(Array("2;7".utf8)).isEmpty)
        #expect(decoder.decode(Array("Mb".utf8)) == [mouse(.wheelDown, 11, 6), .character("b")])
    }

    @Test("Malformed reports are dropped without taking the keys after them", arguments: [
        "\u{1B}[<0;5M", "\u{1B}[<0;0;5M", "\u{1B}[<0;5;0M", "\u{1B}[<0;1.5;1M", "\u{1B}[<0;1;1;1M", "\u{1B}[<;;M",
        "\u{1B}[<-1;1;1M", "\u{1B}[<999;1;1M", "\u{1B}[<0;1;1X", "\u{1B}[<99999999999999999999;1;1M",
    ])
    func malformed(_ report: String) {
        #expect(decode(report + "q\u{1B}[A") == [.character("q"), .up])
    }

    @Test("A report cut short by another sequence or a control key gives that key, not text")
    func truncated() {
        #expect(decode("\u{1B}[<0;12\u{1B}[A") == [.up])
        #expect(decode("\u{1B}[<65;3\r") == [.enter])
        #expect(decode("\u{1B}[<0;12\u{1B}[<64;1;1M") == [mouse(.wheelUp, 0, 0)])
        #expect(decode("\u{1B}[<65;3;\u{3}") == [.ctrl("c")])
    }

    @Test("Half a report still pending when input stops is dropped rather than typed")
    func truncatedAtEnd() {
        #expect(decode("q\u{1B}[<65;12;") == [.character("q")])
        #expect(decode("\u{1B}[M!") == [])
        #expect(decode("\u{1B}[") == [.escape, .character("[")])
    }
}
