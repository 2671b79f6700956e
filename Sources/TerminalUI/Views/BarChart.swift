/// Horizontal bars for a simple series of labelled values.
///
/// With `onSelect` set it takes focus: ↑/↓ (k/j) move a selection over the bars and Enter reports it. However
/// small its frame, it draws only inside it: the value is cut before the edge and the bar gives way first.
@MainActor
open class BarChart: View {
    /// One bar.
    public struct Entry: Hashable, Sendable {
        public var label: String
        public var value: Double
        /// Shown after the bar in place of `valueFormatter`'s text (an amount with its currency, say).
        public var valueText: String?

        public init(_ label: String, _ value: Double, valueText: String? = nil) {
            self.label = label
            self.value = value
            self.valueText = valueText
        }
    }

    public var entries: [Entry] {
        didSet {
            if let selected = selectedIndex { selectedIndex = entries.isEmpty ? nil : min(selected, entries.count - 1) }
            setNeedsDisplay()
        }
    }
    /// Turns a value into the text shown after its bar.
    var valueFormatter: @Sendable (Double) -> String
    /// The selected bar while the chart is selectable and has entries.
    public private(set) var selectedIndex: Int?
    /// Called with the bar's index when Enter is pressed; setting it makes the chart focusable.
    public var onSelect: (@MainActor (Int) -> Void)? { didSet { setNeedsDisplay() } }
    /// Whether the selected bar stays marked (underlined) while another view has the focus. A screen with a second
    /// selectable view turns it off, so that only the focused one shows a selection.
    public var showsSelectionWhenUnfocused = true { didSet { setNeedsDisplay() } }

    public init(entries: [Entry] = [], valueFormatter: @escaping @Sendable (Double) -> String = { String(Int($0.rounded())) }) {
        self.entries = entries
        self.valueFormatter = valueFormatter
        super.init()
    }

    open override var canFocus: Bool { onSelect != nil && !entries.isEmpty }

    open override var keyBindings: [KeyBinding] {
        [
            KeyBinding(KitKeys.previousRow, "previous bar") { [weak self] in self?.moveSelection(by: -1) },
            KeyBinding(KitKeys.nextRow, "next bar") { [weak self] in self?.moveSelection(by: 1) },
            KeyBinding([.enter], "select") { [weak self] in
                guard let self, !self.entries.isEmpty else { return }
                self.onSelect?(self.selectedIndex ?? 0)
            },
        ]
    }

    open override func handle(_ key: Key) -> Bool {
        guard canFocus else { return false }
        return keyBindings.dispatch(key)
    }

    /// Moves the selection by a number of bars, staying on the first or last.
    func moveSelection(by delta: Int) {
        guard !entries.isEmpty else { return }
        selectedIndex = min(max(0, (selectedIndex ?? 0) + delta), entries.count - 1)
        setNeedsDisplay()
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: proposal.width, height: min(entries.count, proposal.height))
    }

    open override func draw(in canvas: Canvas) {
        let width = canvas.size.width
        guard !entries.isEmpty, width > 0 else { return }
        let theme = canvas.theme
        let labelWidth = min(entries.map { $0.label.displayWidth }.max() ?? 0, width / 3)
        let values = entries.map { $0.valueText ?? valueFormatter($0.value) }
        let valueWidth = values.map(\.displayWidth).max() ?? 0
        let barRoom = max(0, width - labelWidth - valueWidth - 3)
        let maximum = max(entries.map(\.value).max() ?? 0, 0)
        let partials = theme.glyphs.barPartials
        let highlighted = onSelect == nil || !(isFocused || showsSelectionWhenUnfocused) ? nil : (selectedIndex ?? 0)
        for (row, entry) in entries.enumerated() where row < canvas.size.height {
            let labelStyle = row == highlighted ? (isFocused ? theme.selection : theme.inactiveSelection) : theme.text
            canvas.write(entry.label.padded(toWidth: labelWidth), x: 0, y: row, style: labelStyle, maxWidth: labelWidth)
            let eighths = maximum > 0 ? Int((max(0, entry.value) / maximum * Double(barRoom * 8)).rounded()) : 0
            var bar = String(repeating: theme.glyphs.barFull, count: eighths / 8)
            if partials.count == 8, eighths % 8 > 0 {
                bar += partials[eighths % 8]
            }
            let x = labelWidth + 1
            let used = bar.isEmpty ? 0 : canvas.write(bar, x: x, y: row, style: theme.bar, maxWidth: max(0, width - x))
            let valueX = x + used + 1
            if valueX < width {
                canvas.write(values[row], x: valueX, y: row, style: theme.muted, maxWidth: width - valueX)
            }
        }
    }
}

private extension String {
    /// The text followed by spaces up to `width` columns.
    func padded(toWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - displayWidth))
    }
}
