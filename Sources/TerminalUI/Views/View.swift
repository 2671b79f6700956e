/// The base of every view: a rectangle in its superview that draws into a canvas and may take focus.
///
/// Subclasses override `draw(in:)`, `layoutSubviews()`, `sizeThatFits(_:)`, and for focusable views
/// `canFocus` and `handle(_:)`. Views never talk to a terminal; they draw into a cell buffer.
@MainActor
open class View {
    /// The rectangle in the superview's coordinates.
    public var frame: Rect = .zero {
        didSet { if frame != oldValue { setNeedsDisplay() } }
    }
    public private(set) var subviews: [View] = []
    public private(set) weak var superview: View?
    /// Hidden views are neither drawn nor focusable.
    public var isHidden = false {
        didSet { if isHidden != oldValue { setNeedsDisplay() } }
    }
    /// Whether this view has the keyboard focus; set by the focus system.
    public internal(set) var isFocused = false {
        didSet {
            if isFocused != oldValue {
                focusDidChange()
                // Views around this one may draw differently while they hold the focus (a panel's border).
                var ancestor = superview
                while let view = ancestor {
                    view.needsDraw = true
                    ancestor = view.superview
                }
                setNeedsDisplay()
            }
        }
    }
    /// Called on the root of a view tree when anything in it needs to be drawn again, with whether the change
    /// may alter a view's size or place (false for one that only changes what a view shows in place).
    var onNeedsDisplay: (@MainActor (_ layoutMayChange: Bool) -> Void)?
    /// Whether what the view draws changed since its last frame (set by `setNeedsDisplay()`).
    var needsDraw = true
    /// Where the view was drawn in the last frame, in screen coordinates; nil when it was not drawn.
    var drawnRect: Rect?
    /// Rows of the view (in its own coordinates) to draw again when the rest of it is unchanged.
    var changedOwnRows: Range<Int>?

    public init() {}

    /// The size in the view's own coordinates.
    public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

    /// Whether the view takes part in focus traversal (Tab / Shift-Tab).
    open var canFocus: Bool { false }

    /// The keys the view reacts to while focused, shown in the `?` overlay.
    open var keyBindings: [KeyBinding] { [] }

    /// Handles a key while focused (or while a subview is focused); returns whether it was consumed.
    open func handle(_ key: Key) -> Bool {
        keyBindings.dispatch(key)
    }

    /// Handles a mouse event whose location is in the view's own coordinates; returns whether it was consumed
    /// (if not, the superview is asked next).
    open func handleMouse(_ event: MouseEvent) -> Bool {
        false
    }

    /// Called when the view gains or loses focus.
    func focusDidChange() {}

    /// Whether the view animates (a running spinner); the application ticks it while true.
    var isAnimating: Bool { false }

    /// Advances an animation by one step.
    func tick() {}

    /// Places subviews; called before every frame is drawn.
    open func layoutSubviews() {}

    /// Draws the view's own content; subviews are drawn after, on top.
    open func draw(in canvas: Canvas) {}

    /// The size the view would like within the proposed size (width and height are the room available).
    func sizeThatFits(_ proposal: Size) -> Size {
        proposal
    }

    /// Adds a subview on top of the others.
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        setNeedsDisplay()
    }

    /// Removes the view from its superview.
    func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        parent.setNeedsDisplay()
    }

    /// Asks for the view to be drawn again in the next frame (with whatever lies over or under it).
    ///
    /// A frame redraws only the rows of the views that asked, so a view calls this whenever anything it draws
    /// changes. With `sizeUnchanged` (a selection or a scroll position that moved) the frame skips laying out
    /// again: pass it only when neither this view's size nor any other view's place can follow from the change.
    public func setNeedsDisplay(sizeUnchanged: Bool = false) {
        needsDraw = true
        notifyRoot(layoutMayChange: !sizeUnchanged)
    }

    /// Asks for some of the view's rows (in its own coordinates) to be drawn again, the rest being unchanged
    /// (a list's selection moving from one row to another); implies `sizeUnchanged`.
    public func setNeedsDisplay(rows: Range<Int>) {
        changedOwnRows = changedOwnRows.map { min($0.lowerBound, rows.lowerBound)..<max($0.upperBound, rows.upperBound) } ?? rows
        notifyRoot(layoutMayChange: false)
    }

    private func notifyRoot(layoutMayChange: Bool) {
        var view: View = self
        while let parent = view.superview {
            view = parent
        }
        view.onNeedsDisplay?(layoutMayChange)
    }

    /// Every view's frame and whether it is hidden, in tree order.
    var layoutState: [(Rect, Bool)] {
        var state = [(frame, isHidden)]
        for subview in subviews {
            state += subview.layoutState
        }
        return state
    }

    /// Whether `view` is this view or lies inside it.
    public func contains(_ view: View) -> Bool {
        var current: View? = view
        while let candidate = current {
            if candidate === self { return true }
            current = candidate.superview
        }
        return false
    }

    /// The deepest visible view under a point in this view's coordinates (later subviews, drawn on top, first);
    /// nil when the point is outside the view.
    func hitTest(_ point: Point) -> View? {
        guard !isHidden, bounds.contains(point) else { return nil }
        for subview in subviews.reversed() {
            let local = Point(x: point.x - subview.frame.minX, y: point.y - subview.frame.minY)
            if let hit = subview.hitTest(local) { return hit }
        }
        return self
    }

    /// Converts a point in the coordinates of `ancestor` (a view this one lies inside) to this view's own.
    func convert(_ point: Point, from ancestor: View) -> Point {
        var converted = point
        var current: View? = self
        while let view = current, view !== ancestor {
            converted.x -= view.frame.minX
            converted.y -= view.frame.minY
            current = view.superview
        }
        return converted
    }

    /// The focusable views in this subtree, in drawing order (top to bottom as laid out by stacks).
    public var focusableViews: [View] {
        guard !isHidden else { return [] }
        var result: [View] = canFocus ? [self] : []
        for subview in subviews {
            result += subview.focusableViews
        }
        return result
    }

    /// Whether this view is one of `root.focusableViews`: it can take the focus, and neither it nor a view above it
    /// up to `root` is hidden.
    func isFocusable(within root: View) -> Bool {
        guard canFocus else { return false }
        var current: View? = self
        while let view = current {
            if view.isHidden { return false }
            if view === root { return true }
            current = view.superview
        }
        return false
    }

    /// Whether a view in this subtree is animating (`animatingViews` is not empty), found without collecting them.
    var hasAnimatingViews: Bool {
        guard !isHidden else { return false }
        return isAnimating || subviews.contains { $0.hasAnimatingViews }
    }

    /// Views in this subtree that are animating.
    var animatingViews: [View] {
        guard !isHidden else { return [] }
        var result: [View] = isAnimating ? [self] : []
        for subview in subviews {
            result += subview.animatingViews
        }
        return result
    }

    /// Lays out this view and its subtree.
    func layoutTree() {
        layoutSubviews()
        for subview in subviews where !subview.isHidden {
            subview.layoutTree()
        }
    }

    /// The rows of the screen that must be drawn again: where views that asked for it were and are now, and
    /// where views moved, appeared or disappeared; clears the requests. `origin` is this view's superview's
    /// top-left corner on screen and `clip` what of the screen it may draw on.
    func collectChangedRows(origin: Point, clip: Rect, isShown: Bool, into rows: inout Range<Int>?) {
        let onScreen = frame.offsetBy(dx: origin.x, dy: origin.y)
        let shown = isShown && !isHidden
        let drawn: Rect? = shown ? onScreen.intersection(clip) : nil
        let now = drawn.flatMap { $0.isEmpty ? nil : $0 }
        var spans: [Range<Int>] = []
        if needsDraw || now != drawnRect {
            spans = [drawnRect, now].compactMap { $0.map { $0.minY..<$0.maxY } }
        } else if let own = changedOwnRows, let now {
            let span = max(now.minY, onScreen.minY + own.lowerBound)..<min(now.maxY, onScreen.minY + own.upperBound)
            if !span.isEmpty { spans = [span] }
        }
        for span in spans {
            rows = rows.map { min($0.lowerBound, span.lowerBound)..<max($0.upperBound, span.upperBound) } ?? span
        }
        needsDraw = false
        changedOwnRows = nil
        drawnRect = now
        for subview in subviews {
            subview.collectChangedRows(
                origin: onScreen.origin, clip: now ?? .zero, isShown: shown && now != nil, into: &rows)
        }
    }

    /// Draws this view and its subtree into a canvas covering this view's frame.
    func drawTree(in canvas: Canvas) {
        guard !isHidden, !canvas.clip.isEmpty else { return }
        draw(in: canvas)
        for subview in subviews where !subview.isHidden {
            subview.drawTree(in: canvas.child(subview.frame))
        }
    }
}
