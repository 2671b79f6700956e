import Testing
@testable import TerminalUI

@Suite("Bar chart")
@MainActor
struct BarChartTests {
    private let spending: [BarChart.Entry] = [
        .init("Travel", 90_000, valueText: "$900.00"), .init("Groceries", 41_250, valueText: "$412.50"),
        .init("Coffee", 1_990, valueText: "$19.90"),
    ]

    @Test("Drawn into frames from nothing to roomy, it never touches a cell outside its frame")
    func staysInsideItsFrame() {
        for width in 0...24 {
            for height in 0...4 {
                let sut = BarChart(entries: spending)
                sut.onSelect = { _ in }
                let screen = Rect(x: 0, y: 0, width: 40, height: 8)
                let frame = Rect(x: 3, y: 2, width: width, height: height)
                let surface = DrawingSurface(buffer: CellBuffer(size: screen.size))
                sut.frame = frame
                sut.draw(in: Canvas(surface: surface, frame: frame, clip: screen, theme: .colored()))
                for y in 0..<screen.height {
                    for x in 0..<screen.width where !frame.contains(Point(x: x, y: y)) {
                        #expect(surface.buffer[x, y] == .blank(), "\(width)×\(height): drew at \(x),\(y)")
                    }
                }
            }
        }
    }

    @Test("A value's own text replaces the formatter's, and a narrow chart cuts the value rather than spilling")
    func valueText() {
        let sut = BarChart(entries: spending)
        #expect(render(sut, width: 30, height: 3) == [
            "Travel    ███████████ $900.00",
            "Groceries █████ $412.50",
            "Coffee    ▎ $19.90",
        ])
        #expect(render(sut, width: 12, height: 1) == ["Tra…  $900.…"])
    }

    @Test("With onSelect it takes focus, moves its selection with ↑/↓ and reports Enter (marked unfocused unless asked not to); without, it ignores keys")
    func selection() {
        let sut = BarChart(entries: spending)
        #expect(!sut.canFocus)
        #expect(!sut.handle(.enter))
        var selected: [Int] = []
        sut.onSelect = { selected.append($0) }
        #expect(sut.canFocus)
        #expect(sut.handle(.enter))
        #expect(sut.handle(.down))
        #expect(sut.handle(.character("j")))
        #expect(sut.handle(.down))
        #expect(sut.handle(.enter))
        #expect(sut.handle(.up))
        #expect(sut.handle(.enter))
        #expect(selected == [0, 2, 1])
        let theme = Theme.colored()
        #expect(renderBuffer(sut, width: 30, height: 3, focused: true)[0, 1].style == theme.selection)
        #expect(renderBuffer(sut, width: 30, height: 3, focused: false)[0, 1].style == theme.inactiveSelection)
        #expect(renderBuffer(sut, width: 30, height: 3, focused: true)[0, 0].style == theme.text)
        sut.showsSelectionWhenUnfocused = false
        #expect(renderBuffer(sut, width: 30, height: 3, focused: true)[0, 1].style == theme.selection)
        #expect(renderBuffer(sut, width: 30, height: 3, focused: false)[0, 1].style == theme.text)
        #expect(renderBuffer(sut, width: 30, height: 3, focused: false)[0, 0].style == theme.text)
        sut.entries = []
        #expect(!sut.canFocus)
    }
}
