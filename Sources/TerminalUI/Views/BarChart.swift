/// Horizontal bars for a simple series of labelled values.
@MainActor
open class BarChart: View {
    /// One bar.
    public struct Entry: Hashable, Sendable {
        public var label: String
        public var value: Double

        public init(_ label: String, _ value: Double) {
            self.label = label
            self.value = value
        }
    }

    public var entries: [Entry] { didSet { setNeedsDisplay() } }
    /// Turns a value into the text shown after its bar.
    public var valueFormatter: @Sendable (Double) -> String

    public init(entries: [Entry] = [], valueFormatter: @escaping @Sendable (Double) -> String = { String(Int($0.rounded())) }) {
        self.entries = entries
        self.valueFormatter = valueFormatter
        super.init()
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: proposal.width, height: min(entries.count, proposal.height))
    }

    open override func draw(in canvas: Canvas) {
        guard !entries.isEmpty else { return }
        let theme = canvas.theme
        let labelWidth = min(entries.map { $0.label.displayWidth }.max() ?? 0, canvas.size.width / 3)
        let values = entries.map { valueFormatter($0.value) }
        let valueWidth = values.map(\.displayWidth).max() ?? 0
        let barRoom = max(0, canvas.size.width - labelWidth - valueWidth - 3)
        let maximum = max(entries.map(\.value).max() ?? 0, 0)
        let partials = theme.glyphs.barPartials
        for (row, entry) in entries.enumerated() where row < canvas.size.height {
            canvas.write(entry.label, x: 0, y: row, style: theme.text, maxWidth: labelWidth)
            let eighths = maximum > 0 ? Int((max(0, entry.value) / maximum * Double(barRoom * 8)).rounded()) : 0
            var bar = String(repeating: theme.glyphs.barFull, count: eighths / 8)
            if partials.count == 8, eighths % 8 > 0 {
                bar += partials[eighths % 8]
            }
            let x = labelWidth + 1
            let used = canvas.write(bar, x: x, y: row, style: theme.bar)
            canvas.write(values[row], x: x + used + 1, y: row, style: theme.muted)
        }
    }
}
