import Testing
@testable import TerminalUI

@Suite("Label")
@MainActor
struct LabelTests {
    @Test("Text too wide is truncated with an ellipsis")
    func truncates() {
        let sut = Label("The quick brown fox jumps")
        #expect(render(sut, width: 12, height: 2) == ["The quick b…", ""])
    }

    @Test("Wrapping breaks at spaces and reports the height it needs")
    func wraps() {
        let sut = Label("The quick brown fox jumps", overflow: .wrap)
        #expect(render(sut, width: 10, height: 3) == ["The quick", "brown fox", "jumps"])
        #expect(sut.sizeThatFits(Size(width: 10, height: 10)).height == 3)
    }

    @Test("Centre and trailing alignment place the text by its display width")
    func alignment() {
        #expect(render(Label("漢字", alignment: .center), width: 8, height: 1) == ["  漢字"])
        #expect(render(Label("ab", alignment: .trailing), width: 6, height: 1) == ["    ab"])
    }

    @Test("ASCII themes truncate with three dots")
    func asciiEllipsis() {
        let sut = Label("abcdefghij")
        #expect(render(sut, width: 6, height: 1, theme: .monochrome(unicode: false)) == ["abc..."])
    }

    @Test("Wide text in a narrow label never leaves half a character")
    func wideTruncation() {
        #expect(render(Label("漢字漢字"), width: 4, height: 1) == ["漢…"])
        #expect(render(Label("😀😀😀"), width: 5, height: 1) == ["😀😀…"])
    }
}
