/// The shared buffer a frame is drawn into.
final class DrawingSurface {
    var buffer: CellBuffer

    init(buffer: CellBuffer) {
        self.buffer = buffer
    }
}

/// Where a view draws: its own rectangle of the frame's buffer, clipped, with the theme of the frame.
///
/// Coordinates passed to a canvas are relative to the view's top-left corner.
public struct Canvas {
    let surface: DrawingSurface
    /// The view's rectangle in screen coordinates.
    public let frame: Rect
    /// The part of the screen this canvas may touch.
    let clip: Rect
    /// The look of the frame being drawn.
    public let theme: Theme

    init(surface: DrawingSurface, frame: Rect, clip: Rect, theme: Theme) {
        self.surface = surface
        self.frame = frame
        self.clip = clip
        self.theme = theme
    }

    /// The view's size.
    public var size: Size { frame.size }

    /// The rows of the view (its own coordinates) that this canvas may draw on; empty when none.
    var clippedRows: Range<Int> {
        let top = max(0, clip.minY - frame.minY), bottom = min(frame.height, clip.maxY - frame.minY)
        return top < bottom ? top..<bottom : 0..<0
    }

    /// Writes text at a position; returns the columns advanced. `maxWidth` truncates with an ellipsis.
    @discardableResult
    public func write(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        var text = text
        if let maxWidth {
            text = text.truncated(toWidth: maxWidth, ellipsis: theme.glyphs.ellipsis)
        }
        return surface.buffer.write(text, x: frame.minX + x, y: frame.minY + y, style: style, clip: clip)
    }

    /// Writes text prepared once at a position; returns the columns advanced. `maxWidth` truncates with an ellipsis.
    @discardableResult
    func write(_ text: PreparedText, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        if let maxWidth, text.width > maxWidth {
            return write(text.text, x: x, y: y, style: style, maxWidth: maxWidth)
        }
        return surface.buffer.write(text, x: frame.minX + x, y: frame.minY + y, style: style, clip: clip)
    }

    /// Fills a rectangle (the whole view when nil) with blanks of a style.
    public func fill(_ rect: Rect? = nil, style: Style) {
        let target = (rect ?? Rect(origin: .zero, size: size)).offsetBy(dx: frame.minX, dy: frame.minY)
        surface.buffer.fill(target.intersection(clip), style: style)
    }

    /// Changes the style of a rectangle (the whole view when nil), keeping the text.
    func restyle(_ rect: Rect? = nil, _ transform: (Style) -> Style) {
        let target = (rect ?? Rect(origin: .zero, size: size)).offsetBy(dx: frame.minX, dy: frame.minY)
        surface.buffer.restyle(target.intersection(clip), transform)
    }

    /// Draws a box along the edges of a rectangle (the whole view when nil), with an optional title on top.
    func drawBorder(_ rect: Rect? = nil, style: Style, title: String? = nil, titleStyle: Style? = nil) {
        let box = rect ?? Rect(origin: .zero, size: size)
        guard box.width >= 2, box.height >= 2 else { return }
        let b = theme.glyphs.border
        let rows = clippedRows
        for (y, left, right) in [(box.minY, b.topLeft, b.topRight), (box.maxY - 1, b.bottomLeft, b.bottomRight)]
        where rows.contains(y) {
            write(left, x: box.minX, y: y, style: style)
            surface.buffer.repeatGlyph(
                b.horizontal, count: box.width - 2, x: frame.minX + box.minX + 1, y: frame.minY + y, style: style, clip: clip
            )
            write(right, x: box.maxX - 1, y: y, style: style)
        }
        let firstSide = max(box.minY + 1, rows.lowerBound), lastSide = min(box.maxY - 1, rows.upperBound)
        for y in firstSide..<max(firstSide, lastSide) {
            write(b.vertical, x: box.minX, y: y, style: style)
            write(b.vertical, x: box.maxX - 1, y: y, style: style)
        }
        if let title, !title.isEmpty, box.width > 6, rows.contains(box.minY) {
            write(" \(title) ", x: box.minX + 2, y: box.minY, style: titleStyle ?? style, maxWidth: box.width - 4)
        }
    }

    /// A canvas for a rectangle inside this one (relative coordinates), clipped to both.
    public func child(_ rect: Rect) -> Canvas {
        let absolute = rect.offsetBy(dx: frame.minX, dy: frame.minY)
        return Canvas(surface: surface, frame: absolute, clip: clip.intersection(absolute), theme: theme)
    }
}
