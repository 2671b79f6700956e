/// A view that makes each subview fill its bounds, less `insets`; the default root view of a screen.
@MainActor
open class ContainerView: View {
    /// Space kept free around the content.
    public var insets: EdgeInsets { didSet { setNeedsDisplay() } }

    public init(insets: EdgeInsets = .zero) {
        self.insets = insets
        super.init()
    }

    open override func layoutSubviews() {
        let area = bounds.inset(by: insets)
        for subview in subviews {
            subview.frame = area
        }
    }
}
