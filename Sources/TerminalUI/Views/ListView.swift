/// One row of a list: text on the left, an optional detail on the right.
public struct ListRow: Hashable, Sendable {
    public var text: String { didSet { preparedText = PreparedText(text) } }
    public var detail: String? { didSet { preparedDetail = detail.map(PreparedText.init) } }
    public var style: TextStyle
    /// The detail's style when it differs from the row's (an amount coloured by direction); a selected row
    /// draws all of it in the selection's style.
    public var detailStyle: TextStyle?
    /// `text` and `detail` split into graphemes when the row is made, not on each frame that draws it.
    private(set) var preparedText: PreparedText
    private(set) var preparedDetail: PreparedText?

    public init(_ text: String, detail: String? = nil, style: TextStyle = .text, detailStyle: TextStyle? = nil) {
        self.text = text
        self.detail = detail
        self.style = style
        self.detailStyle = detailStyle
        preparedText = PreparedText(text)
        preparedDetail = detail.map(PreparedText.init)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.text == rhs.text && lhs.detail == rhs.detail && lhs.style == rhs.style && lhs.detailStyle == rhs.detailStyle
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(detail)
        hasher.combine(style)
        hasher.combine(detailStyle)
    }
}

/// Supplies a list's rows; it is asked only for the rows that are visible.
@MainActor
public protocol ListViewDataSource: AnyObject {
    /// How many rows the list has.
    func numberOfRows(in listView: ListView) -> Int
    /// The row at an index (only called for visible rows).
    func listView(_ listView: ListView, rowAt index: Int) -> ListRow
    /// Whether the row at an index can be selected; a row that cannot (a heading) is stepped over, and heads the
    /// rows below it. Every row can, unless the data source says otherwise.
    func listView(_ listView: ListView, canSelectRowAt index: Int) -> Bool
    /// What the row at an index is, for the list to keep that row rather than ask for it again: the same identity
    /// means the same row, looking the same (an item's id with the value the row is made from), so a row that moved
    /// with rows added above it is found again and one whose item changed is asked for anew. nil (the default) keeps
    /// nothing: every frame asks for its rows. A data source that gives identities calls `reloadData()` (or
    /// `reloadRowsOffScreen()`) whenever rows change, and `forgetCachedRows()` when every row looks different.
    func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable?
}

extension ListViewDataSource {
    public func listView(_ listView: ListView, canSelectRowAt index: Int) -> Bool { true }
    public func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable? { nil }
}

/// A virtualised, scrolling list with a selection.
///
/// Keys: ↑/↓ (k/j), PgUp/PgDn, Home/End, Enter opens the selected row. Mouse: a click selects a row, a second
/// click on it opens it (as Enter), the wheel scrolls. Rows the data source says cannot be selected (headings) are
/// stepped over, and a click on one is a click on the row below it. `onNearEnd` fires once per row count when the selection
/// or the bottom of the view comes within `nearEndThreshold` rows of the end, for loading the next page.
///
/// Rows the data source gives an identity (`listView(_:rowIdentityAt:)`) are asked for once and kept, up to
/// `rowCacheLimit`, past which those more than two screens from the visible rows are let go; the screen calls
/// `prepareRowsAround(screens:)` after a frame, so the key that scrolls rows into view only draws them.
@MainActor
open class ListView: View {
    public weak var dataSource: ListViewDataSource? {
        didSet {
            cachedRows.removeAll()
            reloadData()
        }
    }
    /// The selected row, or nil when the list is empty.
    public private(set) var selectedIndex: Int?
    /// The first visible row.
    private(set) var scrollOffset = 0
    /// Called with the row index when Enter is pressed.
    public var onSelect: (@MainActor (Int) -> Void)?
    /// Called with the row index when the selection moves.
    public var onSelectionChange: (@MainActor (Int) -> Void)?
    /// Called when the selection or the last row on screen nears the end of the rows (load the next page here).
    public var onNearEnd: (@MainActor () -> Void)?
    /// Called when the rows on screen change after the selection moved or the list scrolled: a data source that
    /// keeps only the rows near the screen fetches and lets go here.
    public var onVisibleRowsChange: (@MainActor (Range<Int>) -> Void)?
    private var reportedVisibleRows: Range<Int>?
    /// How close to the end `onNearEnd` fires.
    public var nearEndThreshold = 5
    /// How many rows one notch of the mouse wheel scrolls.
    var wheelStep = 3
    /// Shown when there are no rows.
    public var emptyText: String { didSet { if emptyText != oldValue { setNeedsDisplay() } } }
    /// A muted line after the last row, such as more rows loading. It is seen only at the end of the list, so rows
    /// fetched ahead arrive without moving anything on screen.
    public var footer: String? {
        didSet {
            // Below the last row: while that is off screen, and not brought into view by a selected last row (see
            // `scrollToSelection`), there is nothing to draw again (a page asked for ahead).
            guard footer != oldValue, showsEnd(ofRows: rowCount) || selectedIndex == rowCount - 1 else { return }
            setNeedsDisplay()
        }
    }
    /// What Enter does to a row, as the help overlay words it ("open transaction").
    public var openHelp = "open"
    /// Whether the selected row stays marked (underlined) while another view has the focus. A screen with a second
    /// selectable view turns it off, so that only the focused one shows a selection.
    public var showsSelectionWhenUnfocused = true { didSet { setNeedsDisplay() } }
    private var rowCount = 0
    /// How many rows kept by identity make the list let go of those far from the screen (never fewer than ten
    /// screens' worth, so that trimming keeps room to fill).
    var rowCacheLimit = 200
    /// The rows kept, by the identity the data source gave them: kept across reloads, which move indexes, not rows.
    private var cachedRows: [AnyHashable: ListRow] = [:]
    /// The same rows by index, so a frame finds its rows without asking for identities; emptied on every reload.
    private var cachedByIndex: [Int: ListRow] = [:]
    private var nearEndReportedAt: Int?
    /// The row the last click selected, so that a second click on it opens it.
    private var clickedIndex: Int?

    public init(emptyText: String = "Nothing here yet.") {
        self.emptyText = emptyText
        super.init()
    }

    open override var canFocus: Bool { true }

    /// Every cell is set (blanks where no row reaches), so a scroll copies the rows that stay on screen.
    open override var drawsEveryCell: Bool { true }

    /// The number of rows, as last read from the data source.
    public var numberOfRows: Int { rowCount }

    /// Rows that fit on screen.
    public var visibleRowCount: Int { max(1, frame.height) }

    open override var keyBindings: [KeyBinding] {
        [
            KeyBinding(KitKeys.previousRow, "previous row") { [weak self] in self?.moveSelection(by: -1) },
            KeyBinding(KitKeys.nextRow, "next row") { [weak self] in self?.moveSelection(by: 1) },
            KeyBinding(KitKeys.pageUp, "page up") { [weak self] in self?.moveSelection(by: -(self?.visibleRowCount ?? 1)) },
            KeyBinding(KitKeys.pageDown, "page down") { [weak self] in self?.moveSelection(by: self?.visibleRowCount ?? 1) },
            KeyBinding(KitKeys.firstRow, "first row") { [weak self] in self?.select(0) },
            KeyBinding(KitKeys.lastRow, "last row") { [weak self] in self?.select((self?.rowCount ?? 1) - 1, searching: -1) },
            KeyBinding([.enter], openHelp) { [weak self] in
                if let self, let index = self.selectedIndex { self.onSelect?(index) }
            },
        ]
    }

    open override func handle(_ key: Key) -> Bool {
        if key == .enter && (onSelect == nil || selectedIndex == nil) { return false }
        return keyBindings.dispatch(key)
    }

    /// Reads the row count again and keeps the selection in range.
    public func reloadData() {
        cachedByIndex.removeAll(keepingCapacity: true)
        updateRowCount()
        setNeedsDisplay(sizeUnchanged: true)
    }

    /// Lets go of every row kept, when each looks different although its identity is the same (amounts blurred);
    /// the rows are drawn again.
    public func forgetCachedRows() {
        cachedRows.removeAll(keepingCapacity: true)
        cachedByIndex.removeAll(keepingCapacity: true)
        setNeedsDisplay(sizeUnchanged: true)
    }

    /// Asks for the rows `screens` screens either side of the visible ones that are not kept yet (only rows with an
    /// identity are kept): called after a frame, it makes the key that scrolls them into view only draw them.
    public func prepareRowsAround(screens: Int = 1) {
        guard let dataSource, !isHidden, rowCount > 0 else { return }
        for index in rows(around: visibleRows, screens: screens) where cachedByIndex[index] == nil {
            guard let identity = dataSource.listView(self, rowIdentityAt: index) else { continue }
            _ = cachedRow(at: index, identity: identity, from: dataSource)
        }
    }

    /// The row at `index`: kept, or asked for (and kept when it has an identity).
    private func row(at index: Int, from dataSource: ListViewDataSource) -> ListRow {
        if let row = cachedByIndex[index] { return row }
        guard let identity = dataSource.listView(self, rowIdentityAt: index) else {
            return dataSource.listView(self, rowAt: index)
        }
        return cachedRow(at: index, identity: identity, from: dataSource)
    }

    /// The row kept for `identity`, or asked for and kept; at the limit, rows more than two screens from the visible
    /// ones are let go first.
    private func cachedRow(at index: Int, identity: AnyHashable, from dataSource: ListViewDataSource) -> ListRow {
        if let row = cachedRows[identity] {
            cachedByIndex[index] = row
            return row
        }
        let row = dataSource.listView(self, rowAt: index)
        let limit = max(rowCacheLimit, 10 * visibleRowCount)
        if cachedRows.count >= limit || cachedByIndex.count >= limit {
            let around = rows(around: visibleRows, screens: 2)
            let kept = Set(around.compactMap { dataSource.listView(self, rowIdentityAt: $0) })
            cachedRows = cachedRows.filter { kept.contains($0.key) }
            cachedByIndex = cachedByIndex.filter { around.contains($0.key) }
        }
        cachedRows[identity] = row
        cachedByIndex[index] = row
        return row
    }

    /// `visible` widened by `screens` screens of rows on each side, within the rows there are.
    private func rows(around visible: Range<Int>, screens: Int) -> Range<Int> {
        let page = visibleRowCount * max(0, screens)
        return max(0, visible.lowerBound - page)..<max(0, min(rowCount, visible.upperBound + page))
    }

    /// Reloads after the data source changed only rows that are off screen: pages let go of or fetched again far
    /// from it, rows added or removed past the last row on screen. Nothing is drawn again unless the end of the rows
    /// was or is on screen.
    public func reloadRowsOffScreen() {
        cachedByIndex.removeAll(keepingCapacity: true)
        let before = rowCount
        updateRowCount()
        if rowCount != before && (showsEnd(ofRows: before) || showsEnd(ofRows: rowCount)) {
            setNeedsDisplay(sizeUnchanged: true)
        }
    }

    /// Whether the end of `count` rows, where the footer goes, is on screen at the current scroll.
    private func showsEnd(ofRows count: Int) -> Bool {
        count - scrollOffset < visibleRowCount
    }

    private func updateRowCount() {
        rowCount = dataSource.map { $0.numberOfRows(in: self) } ?? 0
        if rowCount == 0 {
            selectedIndex = nil
            scrollOffset = 0
        } else {
            selectedIndex = selectable(near: min(selectedIndex ?? 0, rowCount - 1), searching: 1)
        }
        if let nearEndReportedAt, nearEndReportedAt != rowCount {
            self.nearEndReportedAt = nil
        }
    }

    /// Selects a row (clamped; a row that cannot be selected gives way to the next one that can, or else the one
    /// before) and scrolls it into view.
    public func select(_ index: Int) {
        select(index, searching: 1)
    }

    /// Whether the row at `index` can be selected.
    private func canSelect(_ index: Int) -> Bool {
        dataSource?.listView(self, canSelectRowAt: index) ?? true
    }

    /// The row nearest `index` that can be selected: looking in `direction` (1 down, -1 up) first, then the other
    /// way; nil when none can.
    private func selectable(near index: Int, searching direction: Int) -> Int? {
        guard rowCount > 0 else { return nil }
        let start = min(max(0, index), rowCount - 1)
        for step in [direction, -direction] {
            var candidate = start
            while (0..<rowCount).contains(candidate) {
                if canSelect(candidate) { return candidate }
                candidate += step
            }
        }
        return nil
    }

    /// Selects the row nearest `index` that can be selected, looking in `direction` first.
    private func select(_ index: Int, searching direction: Int) {
        guard rowCount > 0, let clamped = selectable(near: index, searching: direction) else { return }
        let changed = clamped != selectedIndex
        let previous = selectedIndex, previousOffset = scrollOffset, previousCount = rowCount
        selectedIndex = clamped
        scrollToSelection()
        // Asked for a row above the one selected (Up on the first row of a month): its heading comes into view.
        if index < clamped { revealHeadings(above: clamped) }
        if changed {
            clickedIndex = nil
            onSelectionChange?(clamped)
        }
        checkNearEnd(reaching: clamped)
        reportVisibleRows()
        if scrollOffset == previousOffset, rowCount == previousCount {
            // Already there (Down on the last row): nothing to draw again.
            guard changed else { return }
            if let previous, selectedIndex == clamped {
                // Only the row left and the row reached look different.
                let top = min(previous, clamped) - scrollOffset, bottom = max(previous, clamped) - scrollOffset
                setNeedsDisplay(rows: top..<(bottom + 1))
                return
            }
        }
        setNeedsDisplay(afterScrollingFrom: previousOffset, rowCount: previousCount, selection: previous)
    }

    /// Asks for the rows that changed after the list scrolled from `previousOffset`: the rows still on screen move
    /// with the content, and only those uncovered and those of the selection left and reached are drawn (the whole
    /// list when the row count changed or the move is a screen or more).
    private func setNeedsDisplay(afterScrollingFrom previousOffset: Int, rowCount previousCount: Int, selection previous: Int?) {
        let delta = scrollOffset - previousOffset
        guard rowCount == previousCount, delta != 0, delta.magnitude < visibleRowCount else {
            setNeedsDisplay(sizeUnchanged: true)
            return
        }
        let selectionRows = [previous, selectedIndex].compactMap { $0.map { $0 - scrollOffset } }
            .filter { (0..<visibleRowCount).contains($0) }
        let rows = (selectionRows.min() ?? 0)..<((selectionRows.max() ?? -1) + 1)
        setNeedsDisplay(scrolledBy: delta, rows: rows)
    }

    /// Scrolls by a number of rows (the mouse wheel), moving the selection only as far as needed to keep it
    /// on screen.
    public func scroll(by delta: Int) {
        guard rowCount > 0 else { return }
        let height = visibleRowCount
        let previousOffset = scrollOffset, previous = selectedIndex
        scrollOffset = max(0, min(scrollOffset + delta, rowCount - height))
        let lastVisible = min(rowCount, scrollOffset + height) - 1
        if let selected = selectedIndex {
            var kept = min(max(selected, scrollOffset), lastVisible)
            if !canSelect(kept) {
                // The nearest row on screen that can be selected; with none there, the selection stays.
                kept = selectable(near: kept, searching: kept == scrollOffset ? 1 : -1)
                    .flatMap { (scrollOffset...lastVisible).contains($0) ? $0 : nil } ?? selected
            }
            if kept != selected {
                selectedIndex = kept
                clickedIndex = nil
                onSelectionChange?(kept)
            }
        }
        checkNearEnd(reaching: lastVisible)
        reportVisibleRows()
        guard scrollOffset != previousOffset || selectedIndex != previous else { return }
        setNeedsDisplay(afterScrollingFrom: previousOffset, rowCount: rowCount, selection: previous)
    }

    open override func handleMouse(_ event: MouseEvent) -> Bool {
        switch event.kind {
        case .wheelUp:
            scroll(by: -wheelStep)
        case .wheelDown:
            scroll(by: wheelStep)
        case .press(.left), .drag(.left):
            guard scrollOffset + event.location.y < rowCount,
                  let index = selectable(near: scrollOffset + event.location.y, searching: 1)
            else { return true }
            if event.kind == .press(.left), index == selectedIndex, index == clickedIndex, let onSelect {
                clickedIndex = nil
                onSelect(index)
                return true
            }
            select(index)
            if event.kind == .press(.left) { clickedIndex = index }
        default:
            return false
        }
        return true
    }

    /// Moves the selection by a number of rows.
    func moveSelection(by delta: Int) {
        select((selectedIndex ?? 0) + delta, searching: delta < 0 ? -1 : 1)
    }

    private func scrollToSelection() {
        guard let selected = selectedIndex else { return }
        let height = visibleRowCount
        // On the last row, the footer below it comes into view too.
        let footerRows = footer == nil ? 0 : 1
        let bottom = selected == rowCount - 1 ? selected + footerRows : selected
        if selected < scrollOffset {
            scrollOffset = selected
            revealHeadings(above: selected)
        } else if bottom >= scrollOffset + height {
            scrollOffset = min(selected, bottom - height + 1)
        }
        scrollOffset = max(0, min(scrollOffset, max(0, rowCount + footerRows - height)))
    }

    /// Scrolls up over the rows that cannot be selected right above `selected`, the top row on screen: the headings
    /// of a row come into view with it, as far as the screen holds both.
    private func revealHeadings(above selected: Int) {
        guard selected == scrollOffset else { return }
        while scrollOffset > 0, selected - (scrollOffset - 1) < visibleRowCount, !canSelect(scrollOffset - 1) {
            scrollOffset -= 1
        }
    }

    /// The rows on screen.
    public var visibleRows: Range<Int> { scrollOffset..<min(rowCount, scrollOffset + visibleRowCount) }

    private func reportVisibleRows() {
        let rows = visibleRows
        guard rows != reportedVisibleRows else { return }
        reportedVisibleRows = rows
        onVisibleRowsChange?(rows)
    }

    private func checkNearEnd(reaching index: Int) {
        guard rowCount > 0 else { return }
        if index >= rowCount - 1 - nearEndThreshold && nearEndReportedAt != rowCount {
            nearEndReportedAt = rowCount
            onNearEnd?()
        }
    }

    open override func layoutSubviews() {
        let offset = scrollOffset
        scrollToSelection()
        // A new height, or a footer come into view below a selected last row, moved the rows: they are drawn again.
        if scrollOffset != offset { setNeedsDisplay(sizeUnchanged: true) }
    }

    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let width = canvas.size.width
        canvas.fill(style: .plain)
        guard let dataSource, rowCount > 0 else {
            canvas.write(emptyText, x: 0, y: 0, style: theme.muted, maxWidth: width)
            return
        }
        let end = min(rowCount, scrollOffset + canvas.size.height)
        // Only the rows the frame draws are asked for (a step draws two of them).
        let drawnRows = canvas.clippedRows
        let first = scrollOffset + drawnRows.lowerBound, last = min(end, scrollOffset + drawnRows.upperBound)
        for index in first..<max(first, last) {
            let y = index - scrollOffset
            let row = row(at: index, from: dataSource)
            let isSelected = index == selectedIndex && (isFocused || showsSelectionWhenUnfocused)
            let base = row.style.resolve(in: theme)
            let style = isSelected ? (isFocused ? theme.selection : theme.inactiveSelection) : base
            if isSelected {
                canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: style)
            }
            var detailWidth = 0
            if let detail = row.preparedDetail {
                detailWidth = min(detail.width, max(0, width - 2))
                // The focused selection is one filled highlight; elsewhere the detail keeps its own colour.
                let ownStyle = row.detailStyle.map { $0.resolve(in: theme) }
                let detailStyle = isSelected && isFocused
                    ? style : ownStyle.map { isSelected ? $0.adding(style.attributes) : $0 } ?? style
                canvas.write(detail, x: width - detailWidth - 1, y: y, style: detailStyle, maxWidth: detailWidth)
            }
            let textRoom = max(0, width - 2 - (detailWidth > 0 ? detailWidth + 2 : 0))
            canvas.write(row.preparedText, x: 1, y: y, style: style, maxWidth: textRoom)
        }
        if let footer, end == rowCount, end - scrollOffset < canvas.size.height {
            canvas.write(footer, x: 1, y: end - scrollOffset, style: theme.muted, maxWidth: max(0, width - 2))
        }
    }
}
