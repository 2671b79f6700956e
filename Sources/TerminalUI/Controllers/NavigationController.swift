/// A stack of screens with a breadcrumb header, a status bar of key hints, and modal presentation.
///
/// Esc asks the top screen (`shouldGoBack`) and then pops it or dismisses the modal.
@MainActor
open class NavigationController: ViewController {
    public private(set) var viewControllers: [ViewController] = []
    /// Screens presented modally on top of the stack, last on top.
    public private(set) var presentedViewControllers: [ViewController] = []
    /// A screen drawn instead of the whole stack and its modals (a lock screen); it alone receives keys, and the
    /// stack underneath keeps its screens, focus and text until `uncover()`.
    public private(set) var coveringViewController: ViewController?
    /// Whether the breadcrumb header is shown.
    var showsHeader = true { didSet { setNeedsDisplay() } }
    /// Whether the status bar is shown.
    var showsStatusBar = true { didSet { setNeedsDisplay() } }
    /// The status bar at the bottom (its hints are refreshed on every frame).
    let statusBar = StatusBar()
    weak var attachedApplication: Application?
    private let header = BreadcrumbView()

    public init(root: ViewController? = nil) {
        super.init(title: "")
        if let root {
            viewControllers = [root]
            root.navigationController = self
        }
    }

    /// The application this navigation controller runs in.
    public override var application: Application? {
        attachedApplication ?? hostApplication ?? navigationController?.application
    }

    /// The screen on top of the stack.
    public var topViewController: ViewController? { viewControllers.last }
    /// The covering screen, or the modal on top, or else the top of the stack: the screen that receives keys.
    public var visibleViewController: ViewController? {
        coveringViewController ?? presentedViewControllers.last ?? topViewController
    }

    open override var title: String {
        get { coveringViewController?.title ?? topViewController?.title ?? "" }
        set {}
    }

    open override func loadView() -> View {
        let view = NavigationView()
        view.navigation = self
        view.addSubview(header)
        view.addSubview(statusBar)
        return view
    }

    // MARK: Stack

    /// Pushes a screen on top.
    public func push(_ controller: ViewController) {
        let old = visibleViewController
        controller.navigationController = self
        transition(from: presentedViewControllers.isEmpty ? old : nil, to: presentedViewControllers.isEmpty ? controller : nil) {
            viewControllers.append(controller)
        }
    }

    /// Pops the top screen (never the root); returns it.
    @discardableResult
    public func pop() -> ViewController? {
        guard viewControllers.count > 1, let top = viewControllers.last else { return nil }
        let next = viewControllers[viewControllers.count - 2]
        let onScreen = presentedViewControllers.isEmpty
        transition(from: onScreen ? top : nil, to: onScreen ? next : nil) {
            viewControllers.removeLast()
        }
        top.navigationController = nil
        return top
    }

    /// Pops every screen above the root; returns them.
    @discardableResult
    public func popToRoot() -> [ViewController] {
        guard viewControllers.count > 1, let top = viewControllers.last else { return [] }
        let removed = Array(viewControllers.dropFirst())
        let onScreen = presentedViewControllers.isEmpty
        transition(from: onScreen ? top : nil, to: onScreen ? viewControllers[0] : nil) {
            viewControllers.removeLast(viewControllers.count - 1)
        }
        removed.forEach { $0.navigationController = nil }
        return removed
    }

    /// Replaces the whole stack.
    public func setViewControllers(_ controllers: [ViewController]) {
        let old = topViewController
        let new = controllers.last
        let onScreen = presentedViewControllers.isEmpty && old !== new
        for controller in controllers {
            controller.navigationController = self
        }
        transition(from: onScreen ? old : nil, to: onScreen ? new : nil) {
            viewControllers = controllers
        }
        for controller in viewControllers where !controllers.contains(where: { $0 === controller }) {
            controller.navigationController = nil
        }
    }

    /// Presents a screen modally over the current one.
    public func present(_ controller: ViewController) {
        controller.navigationController = self
        transition(from: visibleViewController, to: controller) {
            presentedViewControllers.append(controller)
        }
    }

    /// Dismisses the top modal screen; returns it.
    @discardableResult
    func dismiss() -> ViewController? {
        guard let modal = presentedViewControllers.last else { return nil }
        let next = presentedViewControllers.count > 1
            ? presentedViewControllers[presentedViewControllers.count - 2] : topViewController
        transition(from: modal, to: next) {
            presentedViewControllers.removeLast()
        }
        modal.navigationController = nil
        return modal
    }

    /// Whether Esc has somewhere to go back to (never while covered).
    var canGoBack: Bool {
        coveringViewController == nil && (!presentedViewControllers.isEmpty || viewControllers.count > 1)
    }

    // MARK: Cover

    /// Draws `controller` instead of everything else until `uncover()`; the stack underneath is left as it is.
    public func cover(with controller: ViewController) {
        guard coveringViewController == nil else { return }
        let old = visibleViewController
        controller.navigationController = self
        let animate = isVisible
        if animate {
            old?.beginAppearance(false)
            controller.beginAppearance(true)
        }
        coveringViewController = controller
        rebuildViews()
        if animate {
            old?.endAppearance(false)
            controller.endAppearance(true)
        }
        setNeedsDisplay()
    }

    /// Removes the covering screen and shows the stack again, as it was; returns the covering screen.
    @discardableResult
    public func uncover() -> ViewController? {
        guard let cover = coveringViewController else { return nil }
        let animate = isVisible
        if animate { cover.beginAppearance(false) }
        coveringViewController = nil
        let next = visibleViewController
        if animate { next?.beginAppearance(true) }
        rebuildViews()
        if animate {
            cover.endAppearance(false)
            next?.endAppearance(true)
        }
        cover.navigationController = nil
        setNeedsDisplay()
        return cover
    }

    /// Asks the visible screen whether it may go back, then dismisses or pops it; returns whether it did.
    @discardableResult
    func goBack() -> Bool {
        guard canGoBack, let visible = visibleViewController else { return false }
        guard visible.shouldGoBack() else { return true }
        if presentedViewControllers.isEmpty {
            pop()
        } else {
            dismiss()
        }
        return true
    }

    private func transition(from old: ViewController?, to new: ViewController?, change: () -> Void) {
        let animate = isVisible && old !== new && coveringViewController == nil
        if animate {
            old?.beginAppearance(false)
            new?.beginAppearance(true)
        }
        change()
        rebuildViews()
        if animate {
            old?.endAppearance(false)
            new?.endAppearance(true)
        }
        setNeedsDisplay()
    }

    private func rebuildViews() {
        let host = view
        for subview in host.subviews where subview !== header && subview !== statusBar {
            subview.removeFromSuperview()
        }
        if let cover = coveringViewController {
            host.addSubview(cover.view)
            return
        }
        if let top = topViewController {
            host.addSubview(top.view)
        }
        for modal in presentedViewControllers {
            host.addSubview(modal.view)
        }
    }

    /// The focus belongs to the screen shown.
    override var holdsFocus: Bool { false }

    override func childAppearanceWillChange(_ appearing: Bool) {
        if appearing { rebuildViews() }
        visibleViewController?.beginAppearance(appearing)
    }

    override func childAppearanceDidChange(_ appearing: Bool) {
        visibleViewController?.endAppearance(appearing)
    }

    // MARK: Keys

    open override func handle(_ key: Key) -> Bool {
        if let visible = visibleViewController, visible.handle(key) { return true }
        if KitKeys.back.contains(key) {
            return goBack()
        }
        return false
    }

    /// Hands the event to the visible screen (a modal when one is up, so clicks around it do nothing).
    open override func handleMouse(_ event: MouseEvent) -> Bool {
        guard let visible = visibleViewController else { return false }
        return visible.handleMouse(event.moved(to: visible.view.convert(event.location, from: view)))
    }

    open override var helpBindings: [KeyBinding] {
        var bindings = visibleViewController?.helpBindings ?? []
        if canGoBack {
            bindings.append(.described(KitKeys.back, "back"))
        }
        return bindings
    }

    /// The visible screen's own hints and those of its child holding the focus, which give way (the child's first)
    /// on a narrow status bar.
    var statusHints: [KeyBinding] {
        (visibleViewController?.activeKeyBindings ?? []).filter(\.showsInStatusBar)
    }

    /// The hints of moving between screens and of help, which the status bar always keeps.
    var trailingStatusHints: [KeyBinding] {
        var hints: [KeyBinding] = []
        if canGoBack {
            hints.append(.described(KitKeys.back, "back"))
        }
        hints.append(.described([KitKeys.helpQuestionMark], "help"))
        if let application, let quitKey = application.quitKey, !canGoBack {
            hints.append(.described([quitKey], "quit"))
        }
        return hints
    }

    // MARK: Layout

    /// The breadcrumb and the key hints follow the visible screen on every frame, laid out or not.
    override func willDrawFrame() {
        header.titles = coveringViewController.map { [$0.title] } ?? viewControllers.map(\.title)
        statusBar.hints = statusHints
        statusBar.trailingHints = trailingStatusHints
        visibleViewController?.willDrawFrame()
    }

    open override func didPresentFrame() {
        visibleViewController?.didPresentFrame()
    }

    func layout(in bounds: Rect) {
        var content = bounds
        header.isHidden = !showsHeader
        statusBar.isHidden = !showsStatusBar
        if showsHeader {
            header.frame = Rect(x: 0, y: 0, width: bounds.width, height: 1)
            content = content.inset(by: EdgeInsets(top: 1))
        }
        if showsStatusBar {
            statusBar.frame = Rect(x: 0, y: bounds.maxY - 1, width: bounds.width, height: 1)
            content = content.inset(by: EdgeInsets(bottom: 1))
        }
        if let cover = coveringViewController {
            cover.view.frame = content
            return
        }
        topViewController?.view.frame = content
        for modal in presentedViewControllers {
            let room = Size(width: max(0, content.width - 4), height: max(0, content.height - 2))
            if let wanted = modal.preferredContentSize(in: room) {
                let width = min(wanted.width, room.width), height = min(wanted.height, room.height)
                modal.view.frame = Rect(
                    x: content.minX + (content.width - width) / 2, y: content.minY + (content.height - height) / 2,
                    width: width, height: height)
            } else {
                modal.view.frame = content
            }
        }
    }
}

/// The navigation controller's root view: lays out header, content, modals and status bar.
@MainActor
final class NavigationView: View {
    weak var navigation: NavigationController?

    override func layoutSubviews() {
        navigation?.layout(in: bounds)
    }
}

/// The header line: the titles of the stack, joined by a separator, cut from the left when too long.
@MainActor
final class BreadcrumbView: View {
    var titles: [String] = [] { didSet { if titles != oldValue { setNeedsDisplay() } } }

    override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(style: theme.header)
        let separator = theme.glyphs.breadcrumbSeparator
        var shown = titles.filter { !$0.isEmpty }
        var text = shown.joined(separator: separator)
        let room = canvas.size.width - 2
        while text.displayWidth > room && shown.count > 1 {
            shown.removeFirst()
            text = theme.glyphs.ellipsis + separator + shown.joined(separator: separator)
        }
        canvas.write(text, x: 1, y: 0, style: theme.header, maxWidth: room)
    }
}
