/// A bordered box with an optional title around one content view.
@MainActor
open class Panel: View {
    public var title: String? { didSet { if title != oldValue { setNeedsDisplay() } } }
    /// Space between the border and the content.
    var padding: EdgeInsets { didSet { setNeedsDisplay() } }
    public let content: View

    public init(title: String? = nil, padding: EdgeInsets = EdgeInsets(top: 0, left: 1, bottom: 0, right: 1), content: View) {
        self.title = title
        self.padding = padding
        self.content = content
        super.init()
        addSubview(content)
    }

    private var contentInsets: EdgeInsets {
        EdgeInsets(top: 1 + padding.top, left: 1 + padding.left, bottom: 1 + padding.bottom, right: 1 + padding.right)
    }

    open override func layoutSubviews() {
        content.frame = bounds.inset(by: contentInsets)
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let insets = contentInsets
        let inner = content.sizeThatFits(Size(
            width: max(0, proposal.width - insets.left - insets.right),
            height: max(0, proposal.height - insets.top - insets.bottom)))
        return Size(
            width: min(proposal.width, inner.width + insets.left + insets.right),
            height: min(proposal.height, inner.height + insets.top + insets.bottom))
    }

    /// Whether the focused view lies inside this panel.
    var containsFocus: Bool {
        content.focusableViews.contains { $0.isFocused }
    }

    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let style = containsFocus ? theme.focusedBorder : theme.border
        canvas.drawBorder(style: style, title: title, titleStyle: theme.title)
    }
}
