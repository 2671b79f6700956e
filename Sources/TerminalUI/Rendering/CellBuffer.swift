/// One terminal cell: a grapheme, its display width and its style.
///
/// A wide grapheme occupies its own cell (width 2) and the next one, a continuation (width 0, empty text).
public struct Cell: Hashable, Sendable {
    public var text: String
    public var width: Int
    public var style: Style

    public init(text: String, width: Int, style: Style = .plain) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// A space in the given style.
    public static func blank(_ style: Style = .plain) -> Cell {
        Cell(text: " ", width: 1, style: style)
    }

    /// Whether this cell is the right half of a wide grapheme.
    public var isContinuation: Bool { width == 0 }
}

/// A rectangle of cells that views draw into; terminals present it.
public struct CellBuffer: Hashable, Sendable {
    public private(set) var size: Size
    /// The cells row by row. Each row is its own array, so a frame that starts as a copy of the last one copies
    /// only the rows it changes, and an unchanged row compares equal at once (it is the same storage).
    private var rows: [[Cell]]

    /// A buffer of blanks.
    public init(size: Size, style: Style = .plain) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        rows = Array(repeating: Array(repeating: .blank(style), count: self.size.width), count: self.size.height)
    }

    /// Every cell, row after row.
    public var cells: [Cell] { rows.flatMap { $0 } }

    /// The cells of one row.
    public func row(_ y: Int) -> [Cell] { rows[y] }

    /// The whole buffer as a rectangle.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The cell at a column and row.
    public subscript(x: Int, y: Int) -> Cell {
        rows[y][x]
    }

    private static let asciiText: [String] = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }

    /// Puts a cell, keeping wide graphemes whole: a half that is overwritten turns the other half into a blank.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let width = size.width
        rows[y].withUnsafeMutableBufferPointer { line in
            let old = line[x]
            if old.isContinuation && x > 0 {
                line[x - 1] = .blank(line[x - 1].style)
            }
            if old.width == 2 && x + 1 < width {
                line[x + 1] = .blank(old.style)
            }
            if cell.width == 2 {
                guard x + 1 < width else {
                    line[x] = .blank(cell.style)
                    return
                }
                let next = line[x + 1]
                if next.width == 2 && x + 2 < width {
                    line[x + 2] = .blank(next.style)
                }
                line[x] = cell
                line[x + 1] = Cell(text: "", width: 0, style: cell.style)
            } else {
                line[x] = cell
            }
        }
    }

    /// Writes text from (x, y) inside `clip`; returns the number of columns advanced.
    ///
    /// Controls are skipped, a tab becomes a space, and a wide grapheme that would straddle the clip's edge
    /// is replaced by blanks instead.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.minY, y < area.maxY else { return DisplayWidth.of(text) }
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII: one column per byte, no grapheme breaking needed.
            var column = x
            for byte in text.utf8 {
                if column >= area.maxX { break }
                if column >= area.minX {
                    set(Cell(text: Self.asciiText[Int(byte)], width: 1, style: style), x: column, y: y)
                }
                column += 1
            }
            return text.utf8.count
        }
        if text.unicodeScalars.allSatisfy(DisplayWidth.isSingleColumnGrapheme) {
            // Box drawing, arrows, Latin-1 and punctuation: one grapheme and one column per scalar, as for ASCII.
            var column = x
            for scalar in text.unicodeScalars {
                if column >= area.maxX { break }
                if column >= area.minX {
                    set(Cell(text: String(Character(scalar)), width: 1, style: style), x: column, y: y)
                }
                column += 1
            }
            return column - x
        }
        return write(graphemes: PreparedText.graphemes(of: text), x: x, y: y, style: style, area: area)
    }

    /// Writes text prepared once (`PreparedText`) from (x, y) inside `clip`, as `write(_:x:y:style:clip:)` writes
    /// the same string; returns the number of columns advanced.
    @discardableResult
    mutating func write(_ text: PreparedText, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.minY, y < area.maxY else { return text.width }
        return write(graphemes: text.graphemes, x: x, y: y, style: style, area: area)
    }

    /// Writes graphemes (cells of width 1 or 2) in `style` from (x, y), within `area`, whose rows include `y`. A wide
    /// grapheme that would straddle an edge of the area is replaced by blanks.
    private mutating func write(graphemes: some Sequence<Cell>, x: Int, y: Int, style: Style, area: Rect) -> Int {
        var column = x
        for grapheme in graphemes {
            let width = grapheme.width
            if column >= area.maxX { break }
            if column + width <= area.minX {
                column += width
                continue
            }
            if column < area.minX || column + width > area.maxX {
                for c in max(column, area.minX)..<min(column + width, area.maxX) {
                    set(.blank(style), x: c, y: y)
                }
            } else {
                set(Cell(text: grapheme.text, width: width, style: style), x: column, y: y)
            }
            column += width
        }
        return column - x
    }

    /// Writes `count` copies of `glyph` from column `x` on row `y` (a border's edge), one cell each when it is one
    /// grapheme one column wide; any other glyph is written as text.
    mutating func repeatGlyph(_ glyph: String, count: Int, x: Int, y: Int, style: Style, clip: Rect? = nil) {
        guard count > 0 else { return }
        guard glyph.count == 1, DisplayWidth.of(glyph) == 1 else {
            write(String(repeating: glyph, count: count), x: x, y: y, style: style, clip: clip)
            return
        }
        let area = (clip ?? bounds).intersection(bounds)
        let start = max(x, area.minX)
        let end = min(x + count, area.maxX)
        guard y >= area.minY, y < area.maxY, start < end else { return }
        let cell = Cell(text: glyph, width: 1, style: style)
        for column in start..<end {
            set(cell, x: column, y: y)
        }
    }

    /// Fills a rectangle with blanks of a style.
    public mutating func fill(_ rect: Rect, style: Style) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let blank = Cell.blank(style)
        for y in area.minY..<area.maxY {
            if area.width == size.width {
                rows[y] = Array(repeating: blank, count: size.width)
                continue
            }
            // Only a wide grapheme across an edge of the rectangle reaches outside it: `set` blanks its other half.
            set(blank, x: area.minX, y: y)
            if area.width > 1 {
                set(blank, x: area.maxX - 1, y: y)
            }
            if area.width > 2 {
                // Cell by cell in place: `replaceSubrange` with a repeated cell copied the repetition per cell, the
                // largest cost of drawing a list page.
                rows[y].withUnsafeMutableBufferPointer { cells in
                    for x in (area.minX + 1)..<(area.maxX - 1) {
                        cells[x] = blank
                    }
                }
            }
        }
    }

    /// Moves the cells of a rectangle up by `delta` rows (down when negative), as a scrolled view's content moves;
    /// the rows left behind keep their cells, for the frame to draw. The rectangle's edges must not cut a wide
    /// grapheme (views' cells never straddle their own edges).
    mutating func moveRows(in rect: Rect, by delta: Int) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty, delta != 0, delta.magnitude < area.height else { return }
        let columns = area.minX..<area.maxX
        let targets = delta > 0
            ? Array(area.minY..<(area.maxY - delta)) : Array(((area.minY - delta)..<area.maxY).reversed())
        for y in targets {
            let source = rows[y + delta]
            // Where the two rows agree outside the rectangle (a panel's border, blanks), the whole row moves: the
            // array is shared, not copied cell by cell.
            let agreesOutside = rows[y][..<area.minX] == source[..<area.minX] && rows[y][area.maxX...] == source[area.maxX...]
            if agreesOutside {
                rows[y] = source
            } else {
                rows[y].replaceSubrange(columns, with: source[columns])
            }
        }
    }

    /// The longest run of rows, at least `minimumLength` long, that are the rows of `previous` moved up (`shift` 1)
    /// or down (`shift` -1) by one whole row: the same arrays, as `moveRows` leaves the rows it moves whole. A
    /// terminal can scroll its own copy of the screen by that much instead of being handed those rows again. Rows
    /// equal to `previous` where they are do not count; only storage is compared, so this costs two comparisons of
    /// two pointers a row.
    public func scrolledRun(from previous: CellBuffer, minimumLength: Int = 3) -> (rows: Range<Int>, shift: Int)? {
        guard previous.size == size else { return nil }
        var best: (rows: Range<Int>, shift: Int)?
        var run: (start: Int, shift: Int)?
        func close(at end: Int) {
            guard let open = run, end - open.start >= max(1, minimumLength) else { return }
            if end - open.start > best?.rows.count ?? 0 { best = (open.start..<end, open.shift) }
        }
        func isMoved(_ y: Int, by shift: Int) -> Bool {
            (0..<size.height).contains(y + shift) && Self.sameStorage(rows[y], previous.rows[y + shift])
        }
        for y in 0..<size.height {
            let unchanged = Self.sameStorage(rows[y], previous.rows[y])
            let moved: Int? = unchanged ? nil : isMoved(y, by: 1) ? 1 : isMoved(y, by: -1) ? -1 : nil
            if let moved, run?.shift == moved { continue }
            close(at: y)
            run = moved.map { (y, $0) }
        }
        close(at: size.height)
        return best
    }

    private static func sameStorage(_ row: [Cell], _ other: [Cell]) -> Bool {
        row.withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in
                mine.count == theirs.count && mine.count > 0 && mine.baseAddress == theirs.baseAddress
            }
        }
    }

    /// Changes the style of cells in a rectangle, keeping their text.
    mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.minY..<area.maxY {
            for x in area.minX..<area.maxX {
                rows[y][x].style = transform(rows[y][x].style)
            }
        }
    }

    /// One row as text, with trailing spaces removed.
    public func line(_ y: Int) -> String {
        var text = ""
        for cell in rows[y] {
            text += cell.text
        }
        while text.last == " " {
            text.removeLast()
        }
        return text
    }

    /// Every row as text, with trailing spaces removed.
    public var lines: [String] {
        (0..<size.height).map(line)
    }

    /// The rows joined by newlines.
    public var text: String {
        lines.joined(separator: "\n")
    }
}
