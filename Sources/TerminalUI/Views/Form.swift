/// Labelled fields in rows, each with an inline error line under it when it has one.
@MainActor
open class Form: View {
    private struct Row {
        let label: Label
        let field: View
        let error: Label
    }

    private var rows: [Row] = []
    /// Blank rows between fields.
    public var spacing: Int { didSet { setNeedsDisplay() } }

    public init(spacing: Int = 1) {
        self.spacing = spacing
        super.init()
    }

    /// Appends a labelled field.
    public func addField(_ label: String, _ field: View) {
        let row = Row(label: Label(label, style: .text), field: field, error: Label("", style: .errorText, overflow: .wrap))
        row.error.isHidden = true
        rows.append(row)
        addSubview(row.label)
        addSubview(field)
        addSubview(row.error)
    }

    /// Removes every row.
    public func removeAllFields() {
        for row in rows {
            row.label.removeFromSuperview()
            row.field.removeFromSuperview()
            row.error.removeFromSuperview()
        }
        rows = []
        setNeedsDisplay()
    }

    /// Shows an error under a field, or removes it when nil.
    public func setError(_ message: String?, for field: View) {
        guard let row = rows.first(where: { $0.field === field }) else { return }
        row.error.text = message ?? ""
        row.error.isHidden = message == nil || row.field.isHidden
        setNeedsDisplay()
    }

    /// Hides or shows a field's whole row (label, field and error); hidden rows take no room, and the label
    /// column keeps its width so the other rows do not move.
    public func setRowHidden(_ hidden: Bool, for field: View) {
        guard let row = rows.first(where: { $0.field === field }) else { return }
        row.field.isHidden = hidden
        row.label.isHidden = hidden
        if hidden { row.error.isHidden = true } else { row.error.isHidden = row.error.text.isEmpty }
        setNeedsDisplay()
    }

    private var visibleRows: [Row] { rows.filter { !$0.field.isHidden } }

    /// Removes every inline error.
    func clearErrors() {
        for row in rows {
            row.error.text = ""
            row.error.isHidden = true
        }
        setNeedsDisplay()
    }

    /// The error shown under a field, if any.
    public func error(for field: View) -> String? {
        guard let row = rows.first(where: { $0.field === field }), !row.error.isHidden else { return nil }
        return row.error.text
    }

    private var labelWidth: Int {
        rows.map { $0.label.text.displayWidth }.max() ?? 0
    }

    private func fieldHeight(_ row: Row, width: Int) -> Int {
        max(1, row.field.sizeThatFits(Size(width: width, height: 1)).height)
    }

    private func errorHeight(_ row: Row, width: Int) -> Int {
        row.error.isHidden ? 0 : max(1, row.error.text.wrapped(toWidth: max(1, width)).count)
    }

    /// Lays the rows out top down; when the form has less room than its rows need, it scrolls just enough to
    /// keep the focused field's row in view (the rows above it are clipped away).
    open override func layoutSubviews() {
        let labelColumn = min(labelWidth, max(0, bounds.width / 2))
        let fieldX = labelColumn + 2
        let fieldWidth = max(0, bounds.width - fieldX)
        var placed: [(row: Row, y: Int, height: Int, errorLines: Int)] = []
        var y = 0
        var offset = 0
        for row in visibleRows {
            let height = fieldHeight(row, width: fieldWidth)
            let errorLines = errorHeight(row, width: fieldWidth)
            placed.append((row, y, height, errorLines))
            if row.field.focusableViews.contains(where: \.isFocused), y + height > bounds.height {
                offset = min(y, y + height - bounds.height)
            }
            y += height + errorLines + spacing
        }
        for (row, top, height, errorLines) in placed {
            let y = top - offset
            row.label.frame = Rect(x: 0, y: y, width: labelColumn, height: 1)
            row.field.frame = Rect(x: fieldX, y: y, width: fieldWidth, height: height)
            row.error.frame = Rect(x: fieldX, y: y + height, width: fieldWidth, height: errorLines)
        }
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let fieldWidth = max(0, proposal.width - labelWidth - 2)
        var height = 0
        let shown = visibleRows
        for row in shown {
            height += fieldHeight(row, width: fieldWidth) + errorHeight(row, width: fieldWidth)
        }
        height += spacing * max(0, shown.count - 1)
        return Size(width: proposal.width, height: min(height, proposal.height))
    }
}
