/// A focusable button drawn as `[ Title ]`; Enter, Space or a click presses it. The button that acts on a screen
/// (sends, logs in) is primary: drawn in the theme's `primaryButton` style, so it reads as the one to press even
/// while the focus is elsewhere.
@MainActor
open class Button: View {
    public var title: String { didSet { setNeedsDisplay() } }
    /// What pressing the button does.
    public var action: (@MainActor () -> Void)?
    /// Disabled buttons are skipped by focus and ignore presses.
    public var isEnabled = true { didSet { setNeedsDisplay() } }
    /// Whether this is the button that acts.
    public var isPrimary: Bool { didSet { setNeedsDisplay(sizeUnchanged: true) } }

    public init(_ title: String, isPrimary: Bool = false, action: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.isPrimary = isPrimary
        self.action = action
        super.init()
    }

    open override var canFocus: Bool { isEnabled }

    open override var keyBindings: [KeyBinding] {
        [KeyBinding([.enter, .character(" ")], "press") { [weak self] in self?.press() }]
    }

    open override func handleMouse(_ event: MouseEvent) -> Bool {
        guard event.isClick, event.location.x < label.displayWidth else { return false }
        press()
        return true
    }

    /// Runs the action, as if the user pressed the button.
    public func press() {
        guard isEnabled else { return }
        action?()
    }

    /// The text drawn, brackets included.
    public var label: String { "[ \(title) ]" }

    override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: min(label.displayWidth, proposal.width), height: 1)
    }

    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let style = !isEnabled ? theme.muted : isFocused ? theme.focusedButton : isPrimary ? theme.primaryButton : theme.button
        canvas.write(label, x: 0, y: 0, style: style, maxWidth: canvas.size.width)
    }
}
