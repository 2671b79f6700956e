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
    /// How many rows the view's content moved up (down when negative) since its last frame, when that and
    /// `changedOwnRows` are its only changes: the frame copies the rest of it from the last one.
    var scrolledRows: Int?

    public init() {}

    /// The size in the view's own coordinates.
    public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

    /// Whether the view takes part in focus traversal (Tab / Shift-Tab).
    open var canFocus: Bool { false }

    /// Whether `draw(in:)` sets every cell of the view, so that nothing drawn under it shows: a view that scrolls
    /// (`setNeedsDisplay(scrolledBy:rows:)`) has its cells copied from the last frame only when it is.
    open var drawsEveryCell: Bool { false }

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

    /// Asks for the view to be drawn again after its content moved up by `delta` rows (down when negative), as a
    /// list does when it scrolls: rows still on screen are copied from the last frame, one row moved, and only the
    /// rows the move uncovers and `rows` (in the view's own coordinates after the move: a selection that moved)
    /// are drawn. Implies `sizeUnchanged`. The whole view is drawn instead when it does not draw every cell, when
    /// something else about it changed since its last frame, or when another view is drawn over it.
    public func setNeedsDisplay(scrolledBy delta: Int, rows: Range<Int>) {
        guard drawsEveryCell, delta != 0, !needsDraw, scrolledRows == nil, changedOwnRows == nil else {
            setNeedsDisplay(sizeUnchanged: true)
            return
        }
        scrolledRows = delta
        changedOwnRows = rows.isEmpty ? nil : rows
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

    /// What of the screen must be drawn again: the rows where views that asked for it were and are now, and where
    /// views moved, appeared or disappeared, and the rectangles of views that scrolled; clears the requests.
    /// `origin` is this view's superview's top-left corner on screen and `clip` what of the screen it may draw on.
    func collectChanges(origin: Point, clip: Rect, isShown: Bool, into changes: inout FrameChanges) {
        let onScreen = frame.offsetBy(dx: origin.x, dy: origin.y)
        let shown = isShown && !isHidden
        let drawn: Rect? = shown ? onScreen.intersection(clip) : nil
        let now = drawn.flatMap { $0.isEmpty ? nil : $0 }
        // This view is drawn after every view that scrolled before it in the tree: over one, it spoils the copy.
        // (No arrays here: this runs for every view on every frame.)
        if !changes.moves.isEmpty {
            if let now { changes.cancelMoves(under: now) }
            if let drawnRect, drawnRect != now { changes.cancelMoves(under: drawnRect) }
        }
        if needsDraw || now != drawnRect {
            if let drawnRect { changes.add(drawnRect.minY..<drawnRect.maxY) }
            if let now { changes.add(now.minY..<now.maxY) }
        } else if let now {
            if let delta = scrolledRows {
                if delta.magnitude < now.height {
                    changes.moves.append(FrameChanges.Move(rect: now, delta: delta))
                    changes.add(delta > 0 ? (now.maxY - delta)..<now.maxY : now.minY..<(now.minY - delta))
                } else {
                    changes.add(now.minY..<now.maxY)
                }
            }
            if let own = changedOwnRows {
                let span = max(now.minY, onScreen.minY + own.lowerBound)..<min(now.maxY, onScreen.minY + own.upperBound)
                if !span.isEmpty { changes.add(span) }
            }
        }
        needsDraw = false
        changedOwnRows = nil
        scrolledRows = nil
        drawnRect = now
        for subview in subviews {
            subview.collectChanges(origin: onScreen.origin, clip: now ?? .zero, isShown: shown && now != nil, into: &changes)
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

/// What a frame drawn in part changes: the rows it draws (whole rows, every view on them), and the rectangles it
/// copies from the last frame moved by some rows first (views that scrolled).
struct FrameChanges {
    /// A rectangle of the screen whose cells move up by `delta` rows (down when negative) from the last frame.
    struct Move: Equatable {
        var rect: Rect
        var delta: Int
    }

    var rows: Range<Int>?
    var moves: [Move] = []

    /// Adds rows to draw.
    mutating func add(_ span: Range<Int>) {
        guard !span.isEmpty else { return }
        rows = rows.map { min($0.lowerBound, span.lowerBound)..<max($0.upperBound, span.upperBound) } ?? span
    }

    /// Drops the moves of rectangles that `rect` overlaps (a view drawn over them), drawing their rows instead.
    mutating func cancelMoves(under rect: Rect) {
        guard moves.contains(where: { !$0.rect.intersection(rect).isEmpty }) else { return }
        for move in moves where !move.rect.intersection(rect).isEmpty {
            add(move.rect.minY..<move.rect.maxY)
        }
        moves.removeAll { !$0.rect.intersection(rect).isEmpty }
    }
}
