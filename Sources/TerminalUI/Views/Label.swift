/// Which theme style a piece of text uses.
public enum TextStyle: Hashable, Sendable {
    case text, muted, title, errorText, positive, custom(Style)

    /// The concrete style in a theme.
    func resolve(in theme: Theme) -> Style {
        switch self {
        case .text: return theme.text
        case .muted: return theme.muted
        case .title: return theme.title
        case .errorText: return theme.errorText
        case .positive: return theme.positive
        case .custom(let style): return style
        }
    }
}

/// Horizontal placement of text.
public enum TextAlignment: Hashable, Sendable {
    case leading, center, trailing
}

/// Static text that either truncates with an ellipsis or wraps onto more lines.
@MainActor
open class Label: View {
    /// What happens to text wider than the label.
    public enum Overflow: Hashable, Sendable {
        case truncate, wrap
    }

    public var text: String { didSet { if text != oldValue { setNeedsDisplay() } } }
    public var style: TextStyle { didSet { setNeedsDisplay() } }
    public var overflow: Overflow { didSet { setNeedsDisplay() } }
    public var alignment: TextAlignment { didSet { setNeedsDisplay() } }

    public init(_ text: String = "", style: TextStyle = .text, overflow: Overflow = .truncate, alignment: TextAlignment = .leading) {
        self.text = text
        self.style = style
        self.overflow = overflow
        self.alignment = alignment
        super.init()
    }

    /// The lines the label shows at a width.
    public func lines(forWidth width: Int, ellipsis: String = "…") -> [String] {
        switch overflow {
        case .truncate:
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0).truncated(toWidth: width, ellipsis: ellipsis) }
        case .wrap:
            return text.wrapped(toWidth: width)
        }
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let lines = lines(forWidth: proposal.width)
        let widest = lines.map(\.displayWidth).max() ?? 0
        return Size(width: min(widest, proposal.width), height: min(lines.count, max(proposal.height, 0)))
    }

    open override func draw(in canvas: Canvas) {
        let style = style.resolve(in: canvas.theme)
        for (row, line) in lines(forWidth: canvas.size.width, ellipsis: canvas.theme.glyphs.ellipsis).enumerated()
        where row < canvas.size.height {
            let x: Int
            switch alignment {
            case .leading: x = 0
            case .center: x = max(0, (canvas.size.width - line.displayWidth) / 2)
            case .trailing: x = max(0, canvas.size.width - line.displayWidth)
            }
            canvas.write(line, x: x, y: row, style: style)
        }
    }
}
