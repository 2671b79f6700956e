import Testing
@testable import TerminalUI

@Suite("Cell buffer")
struct CellBufferTests {
    @Test("A wide grapheme takes its cell and a continuation cell")
    func wideCells() {
        var buffer = CellBuffer(size: Size(width: 6, height: 1))
        let advanced = buffer.write("a漢b", x: 0, y: 0, style: .plain)
        #expect(advanced == 4)
        #expect(buffer[1, 0].text == "漢")
        #expect(buffer[1, 0].width == 2)
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer.lines == ["a漢b"])
    }

    @Test("Text of box drawing, Latin-1 and punctuation is written one cell per character, as grapheme by grapheme", arguments: [
        "┌──── Cards ────┐", "Café Zoë · −$4.50 → “paid” …", "│ ⠿ ▲ ▼ ◆", "e\u{301}tude ─", "─\u{FE0F}─", "née — 12 ½",
    ])
    func singleColumnText(_ text: String) {
        var written = CellBuffer(size: Size(width: 12, height: 1))
        let advanced = written.write(text, x: 2, y: 0, style: .plain, clip: Rect(x: 3, y: 0, width: 8, height: 1))
        // The same text placed one grapheme at a time, each through the general path.
        var expected = CellBuffer(size: Size(width: 12, height: 1))
        var column = 2
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if column >= 11 { break }
            if column >= 3 {
                expected.set(Cell(text: String(character), width: width, style: .plain), x: column, y: 0)
            }
            column += width
        }
        #expect(written == expected)
        #expect(advanced == column - 2)
        #expect(DisplayWidth.of(text) == text.map(DisplayWidth.of).reduce(0, +))
    }

    @Test("A repeated glyph fills its run inside the clip only; a glyph wider than a column is written as text")
    func repeatedGlyph() {
        var buffer = CellBuffer(size: Size(width: 8, height: 2))
        buffer.repeatGlyph("─", count: 10, x: -1, y: 0, style: .plain, clip: Rect(x: 1, y: 0, width: 5, height: 2))
        #expect(buffer.lines[0] == " ─────")
        buffer.repeatGlyph("漢", count: 3, x: 0, y: 1, style: .plain)
        #expect(buffer.lines[1] == "漢漢漢")
        buffer.repeatGlyph("─", count: 2, x: 0, y: 5, style: .plain)
        #expect(buffer.lines.count == 2)
    }

    @Test("A wide grapheme never straddles the right edge of the clip")
    func rightClip() {
        var buffer = CellBuffer(size: Size(width: 6, height: 1))
        buffer.write("ab漢字", x: 0, y: 0, style: .plain, clip: Rect(x: 0, y: 0, width: 5, height: 1))
        #expect(buffer.lines == ["ab漢"])
        buffer.write("xyz😀", x: 0, y: 0, style: .plain, clip: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(buffer[3, 0].text == " ")
        #expect(buffer.lines == ["xyz"])
    }

    @Test("A wide grapheme cut by the left edge of the clip becomes a blank")
    func leftClip() {
        var buffer = CellBuffer(size: Size(width: 6, height: 1))
        buffer.fill(buffer.bounds, style: .plain)
        buffer.write("漢字x", x: 1, y: 0, style: .plain, clip: Rect(x: 2, y: 0, width: 4, height: 1))
        #expect(buffer.lines == ["   字x"])
    }

    @Test("Overwriting half of a wide grapheme blanks the other half")
    func overwriteHalf() {
        var buffer = CellBuffer(size: Size(width: 4, height: 1))
        buffer.write("漢字", x: 0, y: 0, style: .plain)
        buffer.write("x", x: 1, y: 0, style: .plain)
        #expect(buffer.lines == [" x字"])
        buffer.write("y", x: 2, y: 0, style: .plain)
        #expect(buffer.lines == [" xy"])
    }

    @Test("ZWJ sequences and combining marks are kept whole in one cell")
    func clusters() {
        var buffer = CellBuffer(size: Size(width: 6, height: 1))
        buffer.write("👨‍👩‍👧e\u{301}", x: 0, y: 0, style: .plain)
        #expect(buffer[0, 0].text == "👨‍👩‍👧")
        #expect(buffer[2, 0].text == "e\u{301}")
        #expect(buffer.lines == ["👨‍👩‍👧e\u{301}"])
    }

    @Test("Controls are skipped and tabs become spaces; rows outside the buffer are ignored")
    func controls() {
        var buffer = CellBuffer(size: Size(width: 6, height: 2))
        buffer.write("a\u{7}\tb", x: 0, y: 0, style: .plain)
        buffer.write("zzz", x: 0, y: 5, style: .plain)
        #expect(buffer.lines == ["a b", ""])
    }

    /// A 10-row frame whose rows read "row 0" … "row 9", each drawn (its own storage).
    private func numberedRows(offset: Int = 0) -> CellBuffer {
        var buffer = CellBuffer(size: Size(width: 8, height: 10))
        for y in 0..<10 {
            buffer.write("row \(y + offset)", x: 0, y: y, style: .plain)
        }
        return buffer
    }

    @Test("Rows moved whole by a scroll are found as one run, up or down; the uncovered rows are left out")
    func scrolledRun() {
        let last = numberedRows()
        var down = last
        down.moveRows(in: Rect(x: 0, y: 2, width: 8, height: 6), by: 1)
        down.write("row new", x: 0, y: 7, style: .plain)
        #expect(down.scrolledRun(from: last)?.rows == 2..<7)
        #expect(down.scrolledRun(from: last)?.shift == 1)
        var up = last
        up.moveRows(in: Rect(x: 0, y: 1, width: 8, height: 8), by: -1)
        up.write("row new", x: 0, y: 1, style: .plain)
        #expect(up.scrolledRun(from: last)?.rows == 2..<9)
        #expect(up.scrolledRun(from: last)?.shift == -1)
        // A redrawn row inside the run splits it; the longer part is kept.
        var split = down
        split.write("row  3", x: 0, y: 3, style: .plain)
        #expect(split.scrolledRun(from: last)?.rows == 4..<7)
        #expect(split.scrolledRun(from: last, minimumLength: 4) == nil)
    }

    @Test("Rows only equal to the last frame's neighbours are no scroll: storage is what counts")
    func equalRowsAreNoScroll() {
        let last = numberedRows()
        // The same text one row up, drawn anew rather than moved.
        let redrawn = numberedRows(offset: 1)
        #expect(redrawn.scrolledRun(from: last) == nil)
        #expect(last.scrolledRun(from: last) == nil)
        #expect(last.scrolledRun(from: CellBuffer(size: Size(width: 8, height: 9))) == nil)
    }
}
