/// A screen: owns a view tree, a title and key bindings, receives lifecycle calls, and keeps its focus.
///
/// Lifecycle: `viewDidLoad` once, before the first appearance; then `viewWillAppear`, `viewDidAppear`,
/// `viewWillDisappear` and `viewDidDisappear` on every push, pop and modal presentation.
/// Keys go first to the focused view (and its superviews), then to `keyBindings`, then move focus
/// (Tab / Shift-Tab, ↓ / ↑).
@MainActor
open class ViewController {
    /// The title shown in the navigation breadcrumb and help overlay.
    open var title: String
    /// The screen's key bindings: they handle keys, fill the status bar and the `?` overlay.
    open var keyBindings: [KeyBinding] = []
    /// The navigation controller showing this screen, if any.
    public internal(set) weak var navigationController: NavigationController?
    /// The view that has the focus (kept while the screen is away, restored when it comes back).
    public private(set) weak var focusedView: View?
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
        hostApplication ?? navigationController?.application
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

    // MARK: Focus

    /// The focusable views of the screen, in order.
    public var focusableViews: [View] {
        view.focusableViews
    }

    /// Moves the focus to a view of this screen (nil removes it).
    public func focus(_ target: View?) {
        if let target, !(view.contains(target) && target.canFocus && !target.isHidden) { return }
        if focusedView !== target {
            focusedView?.isFocused = false
        }
        focusedView = target
        target?.isFocused = isVisible
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

    private func moveFocus(by step: Int) -> Bool {
        let views = focusableViews
        guard !views.isEmpty else { return false }
        guard let current = focusedView, let index = views.firstIndex(where: { $0 === current }) else {
            focus(step > 0 ? views.first : views.last)
            return true
        }
        focus(views[(index + step + views.count) % views.count])
        return true
    }

    /// Called before every frame, laid out or not: containers bring what they show of their children (titles, key
    /// hints) up to date here.
    func willDrawFrame() {}

    /// Called after each frame has been handed to the terminal, on the visible screen only: work a later frame
    /// will want (formatting the rows a scroll would uncover) is done here, off the path from a key to its frame.
    open func didPresentFrame() {}

    /// Focuses the first focusable view when nothing valid is focused.
    ///
    /// Runs before every frame, so the usual case (the focused view is still in `focusableViews`) is answered by
    /// walking up from that view, without collecting the screen's focusable views.
    func ensureFocus() {
        if let current = focusedView, current.isFocusable(within: view) {
            if current.isFocused != isVisible { current.isFocused = isVisible }
            return
        }
        focusedView?.isFocused = false
        focusedView = nil
        if let first = focusableViews.first {
            focus(first)
        }
    }

    // MARK: Keys

    /// Handles a key: focused view and its superviews, then the screen's bindings, then focus movement.
    open func handle(_ key: Key) -> Bool {
        if let focused = focusedView, view.contains(focused) {
            var current: View? = focused
            while let candidate = current {
                if candidate.handle(key) { return true }
                if candidate === view { break }
                current = candidate.superview
            }
        }
        if keyBindings.dispatch(key) { return true }
        if KitKeys.nextField.contains(key) { return focusNext() }
        if KitKeys.previousField.contains(key) { return focusPrevious() }
        return false
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

    /// Every binding that applies on this screen right now, for the `?` overlay.
    open var helpBindings: [KeyBinding] {
        var bindings = keyBindings
        if let focused = focusedView, view.contains(focused) {
            bindings += focused.keyBindings
        }
        if focusableViews.count > 1 {
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
        if appearing {
            if holdsFocus { ensureFocus() }
        } else {
            focusedView?.isFocused = false
        }
        if appearing {
            viewDidAppear()
        } else {
            viewDidDisappear()
        }
        childAppearanceDidChange(appearing)
    }

    /// Containers forward appearance to their visible child.
    func childAppearanceWillChange(_ appearing: Bool) {}
    func childAppearanceDidChange(_ appearing: Bool) {}
}
