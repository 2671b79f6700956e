import Testing
@testable import TerminalUI

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII letters take one column each and controls none")
    func ascii() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of(Character("\u{7}")) == 0)
    }

    @Test("Accented Latin takes one column, precomposed or with a combining mark")
    func accented() {
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Crème brûlée") == 12)
    }

    @Test("A combining mark on its own takes no column")
    func combining() {
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)
        #expect(DisplayWidth.width(of: "\u{301}") == 0)
    }

    @Test("CJK ideographs, kana, Hangul and fullwidth forms take two columns")
    func cjk() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("カナ") == 4)
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ＡＢ") == 4)
    }

    @Test("Emoji, ZWJ sequences, skin tones, flags, keycaps and VS16 take two columns")
    func emoji() {
        #expect(DisplayWidth.of(Character("😀")) == 2)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧‍👦")) == 2)
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)
        #expect(DisplayWidth.of(Character("🇫🇷")) == 2)
        #expect(DisplayWidth.of(Character("1️⃣")) == 2)
        #expect(DisplayWidth.of(Character("❤️")) == 2)
        #expect(DisplayWidth.of(Character("❤")) == 1)
    }

    @Test("Truncation counts columns and ends with an ellipsis")
    func truncation() {
        #expect("漢字漢字".truncated(toWidth: 5) == "漢字…")
        #expect("hello world".truncated(toWidth: 8) == "hello w…")
        #expect("short".truncated(toWidth: 8) == "short")
        #expect("hello".truncated(toWidth: 4, ellipsis: "...") == "h...")
    }

    @Test("Wrapping breaks at spaces and splits words longer than the line")
    func wrapping() {
        #expect("the quick brown fox".wrapped(toWidth: 10) == ["the quick", "brown fox"])
        #expect("abcdefghij".wrapped(toWidth: 4) == ["abcd", "efgh", "ij"])
        #expect("one\ntwo".wrapped(toWidth: 10) == ["one", "two"])
    }
}
