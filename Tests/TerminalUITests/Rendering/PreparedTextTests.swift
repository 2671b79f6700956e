import Testing
@testable import TerminalUI

@Suite("Prepared text")
struct PreparedTextTests {
    @Test("Prepared text writes the cells its string writes, clipped or not, and knows its width", arguments: [
        "Café Zoë · −$4.50", "a漢b漢", "tab\there", "bell\u{7}less", "👍🏽 ok", "e\u{301}tude", "",
    ])
    func writesAsItsString(_ text: String) {
        let prepared = PreparedText(text)
        for clip in [nil, Rect(x: 3, y: 0, width: 8, height: 1), Rect(x: 0, y: 1, width: 12, height: 1)] {
            var fromString = CellBuffer(size: Size(width: 12, height: 1))
            var fromPrepared = fromString
            fromString.write("xxxxxxxxxxxx", x: 0, y: 0, style: .plain)
            fromPrepared.write("xxxxxxxxxxxx", x: 0, y: 0, style: .plain)
            let stringAdvance = fromString.write(text, x: 2, y: 0, style: Style(attributes: .bold), clip: clip)
            let preparedAdvance = fromPrepared.write(prepared, x: 2, y: 0, style: Style(attributes: .bold), clip: clip)
            #expect(fromPrepared == fromString)
            #expect(preparedAdvance == stringAdvance || clip?.minY == 1)
        }
        var unclipped = CellBuffer(size: Size(width: 40, height: 1))
        #expect(prepared.width == unclipped.write(text, x: 0, y: 0, style: .plain))
        #expect(prepared.text == text)
    }

    @Test("A canvas truncates prepared text wider than its room as it truncates the string")
    func truncates() {
        let text = "Coffee Roasters · Dining"
        let surface = DrawingSurface(buffer: CellBuffer(size: Size(width: 12, height: 2)))
        let canvas = Canvas(surface: surface, frame: Rect(x: 0, y: 0, width: 12, height: 2),
                            clip: Rect(x: 0, y: 0, width: 12, height: 2), theme: Theme.colored())
        canvas.write(PreparedText(text), x: 0, y: 0, maxWidth: 10)
        canvas.write(text, x: 0, y: 1, maxWidth: 10)
        #expect(surface.buffer.lines[0] == surface.buffer.lines[1])
        #expect(surface.buffer.lines[0] == "Coffee Ro…")
    }

    @Test("Text from elsewhere is drawn defensively: direction marks and hidden characters dropped, a tower of accents cut to four")
    func defensive() {
        var buffer = CellBuffer(size: Size(width: 20, height: 1))
        let advance = buffer.write("a\u{202E}b\u{200B}c" + "e" + String(repeating: "\u{301}", count: 40), x: 0, y: 0, style: .plain)
        #expect(advance == 4)
        #expect(buffer.lines[0].hasPrefix("abce" + String(repeating: "\u{301}", count: PreparedText.maxMarks)))
        #expect(buffer.lines[0].unicodeScalars.filter { $0.value == 0x301 }.count == PreparedText.maxMarks)
        #expect(PreparedText("e\u{301}\u{302}").graphemes.first?.text == "e\u{301}\u{302}", "ordinary accents are kept")
    }
}
