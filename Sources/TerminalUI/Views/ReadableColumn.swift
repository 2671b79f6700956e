/// Keeps one content view at a readable width, centred in its bounds, full height: on a wide terminal a form does
/// not run its fields across the whole window. Narrower bounds give the content all of their width.
@MainActor
open class ReadableColumn: View {
    /// The widest the content is laid out.
    public var maxWidth: Int { didSet { if maxWidth != oldValue { setNeedsDisplay() } } }
    public let content: View

    public init(maxWidth: Int, content: View) {
        self.maxWidth = maxWidth
        self.content = content
        super.init()
        addSubview(content)
    }

    /// The content's frame in `bounds`.
    var contentFrame: Rect {
        let width = min(max(0, maxWidth), bounds.width)
        return Rect(x: (bounds.width - width) / 2, y: 0, width: width, height: bounds.height)
    }

    open override func layoutSubviews() {
        content.frame = contentFrame
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let inner = content.sizeThatFits(Size(width: min(maxWidth, proposal.width), height: proposal.height))
        return Size(width: proposal.width, height: inner.height)
    }
}
