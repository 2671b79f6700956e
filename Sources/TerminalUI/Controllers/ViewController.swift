/// A screen, or a part of one: owns a view tree, a title and key bindings, receives lifecycle calls, and keeps its
/// focus.
///
/// Lifecycle: `viewDidLoad` once, before the first appearance; then `viewWillAppear`, `viewDidAppear`,
/// `viewWillDisappear` and `viewDidDisappear` on every push, pop and modal presentation.
/// Keys go first to the focused view (and its superviews), then to `keyBindings`, then move focus
/// (Tab / Shift-Tab, ↓ / ↑).
///
/// Containment: a controller hosts children (`addChild(_:)`) and places each child's `view` in its own view tree,
/// so a child draws and resizes with the parent's layout. The screen (the controller with no parent) holds the one
/// focus, which Tab and clicks move across every focusable view, children's included. A key goes to the focused
/// view, then to the bindings of the controller whose view holds it, then to each parent's up to the screen's: a
/// child's keys apply while the focus is inside it, the screen's everywhere (decision 0196).
@MainActor
open class ViewController {
    /// The title shown in the navigation breadcrumb and help overlay.
    open var title: String
    /// The controller's key bindings: they handle keys, fill the status bar and the `?` overlay.
    open var keyBindings: [KeyBinding] = []
    /// The navigation controller showing this screen (or the screen this controller is a child of), if any.
    public internal(set) var navigationController: NavigationController? {
        get { shownBy ?? parent?.navigationController }
        set { shownBy = newValue }
    }
    private weak var shownBy: NavigationController?
    /// The controller this one is a child of: it places this controller's view and passes it keys and appearance.
    public private(set) weak var parent: ViewController?
    /// The controllers hosted in this one's view, in the order they were added.
    public private(set) var children: [ViewController] = []
    /// The screen's focused view (kept while the screen is away, restored when it comes back); only the screen's
    /// is set.
    private weak var heldFocus: View?
    /// Whether the screen is currently on screen.
    private(set) var isVisible = false
    weak var hostApplication: Application?
    private var loadedView: View?

    public init(title: String = "") {
        self.title = title
    }

    /// The root view, created (and `viewDidLoad` called) on first access.
    public var view: View {
        if let loadedView { return loadedView }
        let view = loadView()
        loadedView = view
        viewDidLoad()
        return view
    }

    /// Whether the view has been created.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Creates the root view: by default a `ContainerView`, which makes whatever is added fill the screen.
    open func loadView() -> View {
        ContainerView()
    }

    /// Called once, after the view is created.
    open func viewDidLoad() {}
    /// Called before the screen comes on screen.
    open func viewWillAppear() {}
    /// Called after the screen came on screen.
    open func viewDidAppear() {}
    /// Called before the screen leaves the screen.
    open func viewWillDisappear() {}
    /// Called after the screen left the screen.
    open func viewDidDisappear() {}

    /// Asked when Esc is pressed; return false to stay (for example to ask for confirmation first).
    open func shouldGoBack() -> Bool {
        true
    }

    /// The size wanted when presented modally within `available`; nil fills the content area.
    func preferredContentSize(in available: Size) -> Size? {
        nil
    }

    /// The application running this screen.
    public var application: Application? {
        hostApplication ?? navigationController?.application ?? parent?.application
    }

    /// Asks for the screen to be drawn again.
    public func setNeedsDisplay() {
        view.setNeedsDisplay()
    }

    /// Runs async work on the main actor, tracked by the application (tests can await it with `settle()`);
    /// the screen is redrawn when it finishes.
    @discardableResult
    public func task(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        if let application {
            return application.task(operation)
        }
        return Task { @MainActor in await operation() }
    }

    // MARK: Children

    /// Hosts `child` (taking it from a former parent): its keys apply while the focus is in its view, and it receives
    /// this controller's appearance and frame calls. The caller places `child.view` in its own view tree, where the
    /// child draws and is laid out as any view is. Added to a controller on screen, it appears at once.
    public func addChild(_ child: ViewController) {
        guard child !== self, child.parent !== self else { return }
        var ancestor: ViewController? = self
        while let candidate = ancestor {
            precondition(candidate !== child, "A view controller cannot be a child of its own child")
            ancestor = candidate.parent
        }
        child.removeFromParent()
        children.append(child)
        child.parent = self
        // A child that focused a view while it was a screen of its own hands that focus to its new screen.
        if let pending = child.heldFocus {
            child.heldFocus = nil
            pending.isFocused = false
            if screen.heldFocus == nil { child.focus(pending) }
        }
        if isVisible {
            child.beginAppearance(true)
            child.endAppearance(true)
        }
    }

    /// Leaves the parent: a focus inside this controller's view is taken away (the screen focuses its first
    /// focusable view on the next frame), and a controller on screen disappears. The parent removes `view` from its
    /// own layout: the view tree is not touched here.
    public func removeFromParent() {
        guard let parent else { return }
        let screen = self.screen
        if let focused = screen.heldFocus, loadedView?.contains(focused) == true {
            screen.focus(nil)
        }
        if isVisible {
            beginAppearance(false)
            endAppearance(false)
        }
        parent.children.removeAll { $0 === self }
        self.parent = nil
    }

    /// The controller that holds the focus for this one: the top of its chain of parents.
    var screen: ViewController {
        var top = self
        while let parent = top.parent { top = parent }
        return top
    }

    /// The child whose view holds the screen's focus, if any.
    var focusedChild: ViewController? {
        guard let focused = screen.heldFocus else { return nil }
        return children.first { $0.loadedView?.contains(focused) == true }
    }

    /// This controller and the children down to the one whose view holds the focus, innermost last.
    private var focusChain: [ViewController] {
        var chain: [ViewController] = [self]
        while let child = chain[chain.count - 1].focusedChild {
            chain.append(child)
        }
        return chain
    }

    // MARK: Focus

    /// The view that has the screen's focus, when it lies in this controller's view (a child's included); nil
    /// otherwise.
    public var focusedView: View? {
        guard let focused = screen.heldFocus else { return nil }
        guard parent != nil else { return focused }
        return loadedView?.contains(focused) == true ? focused : nil
    }

    /// Whether the screen's focus is on one of this controller's views (a child's included).
    public var containsFocus: Bool { focusedView != nil }

    /// The focusable views of this controller's view (a child's included), in order.
    public var focusableViews: [View] {
        view.focusableViews
    }

    /// Moves the screen's focus to a view of this controller (nil removes it). A child focuses on its screen, so
    /// that one view at a time has the focus, wherever it is.
    public func focus(_ target: View?) {
        if let target, !(target.canFocus && !target.isHidden) { return }
        if let target, !view.contains(target) {
            // A child's view may not be placed yet (its `viewDidLoad` focusing a view): it must lie in this
            // controller's view or in the screen's.
            guard parent != nil, screen.view.contains(target) else { return }
        }
        let screen = self.screen
        if screen.heldFocus !== target {
            screen.heldFocus?.isFocused = false
        }
        screen.heldFocus = target
        target?.isFocused = screen.isVisible
    }

    /// Moves the focus to the next focusable view (wrapping); returns whether there is one.
    @discardableResult
    func focusNext() -> Bool {
        moveFocus(by: 1)
    }

    /// Moves the focus to the previous focusable view (wrapping); returns whether there is one.
    @discardableResult
    func focusPrevious() -> Bool {
        moveFocus(by: -1)
    }

    /// Steps the focus across every focusable view of the screen, children's included.
    private func moveFocus(by step: Int) -> Bool {
        let screen = self.screen
        let views = screen.focusableViews
        guard !views.isEmpty else { return false }
        guard let current = screen.heldFocus, let index = views.firstIndex(where: { $0 === current }) else {
            screen.focus(step > 0 ? views.first : views.last)
            return true
        }
        screen.focus(views[(index + step + views.count) % views.count])
        return true
    }

    /// Called before every frame, laid out or not: containers bring what they show of their children (titles, key
    /// hints) up to date here. Passed on to the children.
    func willDrawFrame() {
        for child in children { child.willDrawFrame() }
    }

    /// Called after each frame has been handed to the terminal, on the visible screen only: work a later frame
    /// will want (formatting the rows a scroll would uncover) is done here, off the path from a key to its frame.
    /// Passed on to the children: an override calls `super`.
    open func didPresentFrame() {
        for child in children { child.didPresentFrame() }
    }

    /// Focuses the first focusable view when nothing valid is focused.
    ///
    /// Runs before every frame, so the usual case (the focused view is still in `focusableViews`) is answered by
    /// walking up from that view, without collecting the screen's focusable views.
    func ensureFocus() {
        if let current = heldFocus, current.isFocusable(within: view) {
            if current.isFocused != isVisible { current.isFocused = isVisible }
            return
        }
        heldFocus?.isFocused = false
        heldFocus = nil
        if let first = focusableViews.first {
            focus(first)
        }
    }

    // MARK: Keys

    /// Handles a key on the screen: the focused view and its superviews, then the bindings of the controller whose
    /// view holds the focus and of each parent up to this one, then focus movement. Called on the screen only (a
    /// child's keys are its `keyBindings`).
    open func handle(_ key: Key) -> Bool {
        if let focused = focusedView, view.contains(focused) {
            var current: View? = focused
            while let candidate = current {
                if candidate.handle(key) { return true }
                if candidate === view { break }
                current = candidate.superview
            }
        }
        for controller in focusChain.reversed() where controller.keyBindings.dispatch(key) {
            return true
        }
        if KitKeys.nextField.contains(key) { return focusNext() }
        if KitKeys.previousField.contains(key) { return focusPrevious() }
        return false
    }

    /// The bindings that apply now: this controller's, then those of the child holding the focus (and of its child
    /// holding it …). The status bar shows them in this order; keys try them the other way round.
    var activeKeyBindings: [KeyBinding] {
        focusChain.flatMap(\.keyBindings)
    }

    // MARK: Mouse

    /// Handles a mouse event located in the root view's coordinates: a click first focuses the focusable view
    /// under it, then the view under it and its superviews are asked in turn, each with its own coordinates.
    open func handleMouse(_ event: MouseEvent) -> Bool {
        guard let target = view.hitTest(event.location) else { return false }
        if event.isClick {
            var candidate: View? = target
            while let current = candidate, !current.canFocus, current !== view {
                candidate = current.superview
            }
            if let focusable = candidate, focusable.canFocus { focus(focusable) }
        }
        var current: View? = target
        while let candidate = current {
            if candidate.handleMouse(event.moved(to: candidate.convert(event.location, from: view))) { return true }
            if candidate === view { break }
            current = candidate.superview
        }
        return false
    }

    /// Every binding that applies right now, for the `?` overlay: this controller's, then the focused child's
    /// `helpBindings` (or, with the focus on a view of its own, that view's), and on the screen the focus movement.
    open var helpBindings: [KeyBinding] {
        var bindings = keyBindings
        if let child = focusedChild {
            bindings += child.helpBindings
        } else if let focused = focusedView, view.contains(focused) {
            bindings += focused.keyBindings
        }
        if parent == nil && focusableViews.count > 1 {
            bindings.append(.described(KitKeys.nextField, "next field"))
            bindings.append(.described(KitKeys.previousField, "previous field"))
        }
        return bindings
    }

    // MARK: Appearance

    func beginAppearance(_ appearing: Bool) {
        if appearing {
            _ = view
            viewWillAppear()
        } else {
            viewWillDisappear()
        }
        childAppearanceWillChange(appearing)
    }

    /// Whether this controller keeps a focus of its own. A container's view holds its children's views, so a
    /// focus of its own would mark a child's first field focused beside the field the child focused.
    var holdsFocus: Bool { true }

    func endAppearance(_ appearing: Bool) {
        isVisible = appearing
        // The screen holds the focus; a child's views are among its views.
        if parent == nil {
            if appearing {
                if holdsFocus { ensureFocus() }
            } else {
                heldFocus?.isFocused = false
            }
        }
        if appearing {
            viewDidAppear()
        } else {
            viewDidDisappear()
        }
        childAppearanceDidChange(appearing)
    }

    /// Appearance is passed on to the children (a navigation controller passes it to its visible screen instead).
    func childAppearanceWillChange(_ appearing: Bool) {
        for child in children { child.beginAppearance(appearing) }
    }

    func childAppearanceDidChange(_ appearing: Bool) {
        for child in children { child.endAppearance(appearing) }
    }
}
