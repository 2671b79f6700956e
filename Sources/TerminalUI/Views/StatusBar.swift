/// The bottom line: key hints taken from key bindings, and an optional message on the right.
///
/// `hints` are drawn first and give way, from the last, when the line is too narrow for all of them; the
/// `trailingHints` that follow them (the keys that move between screens, and help, which lists every key) stay.
@MainActor
open class StatusBar: View {
    /// The bindings whose keys are shown, as many as fit.
    public var hints: [KeyBinding] = [] {
        didSet { if !hints.showSame(as: oldValue) { setNeedsDisplay() } }
    }
    /// The bindings shown after `hints`, kept when the line is narrow.
    public var trailingHints: [KeyBinding] = [] {
        didSet { if !trailingHints.showSame(as: oldValue) { setNeedsDisplay() } }
    }
    /// Text shown at the right end.
    public var message: String? { didSet { if message != oldValue { setNeedsDisplay() } } }

    public override init() {
        super.init()
    }

    /// The hint text when all of it fits, such as `Enter open  Esc back  ? help`.
    var hintText: String {
        (hints + trailingHints).map { $0.shownParts.joined(separator: " ") }.joined(separator: "  ")
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: proposal.width, height: min(1, proposal.height))
    }

    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let width = canvas.size.width
        canvas.fill(style: theme.statusBar)
        var messageWidth = 0
        if let message, !message.isEmpty {
            messageWidth = min(message.displayWidth, max(0, width - 2))
            canvas.write(message, x: width - messageWidth - 1, y: 0, style: theme.statusBar, maxWidth: messageWidth)
        }
        let limit = width - (messageWidth > 0 ? messageWidth + 2 : 0)
        // Room kept for the trailing hints: each one's width, and two columns before each.
        let trailingWidth = trailingHints.reduce(0) { $0 + 2 + $1.shownWidth }
        var x = 1
        var first = true
        func draw(_ hint: KeyBinding) {
            if !first { x += 2 }
            first = false
            x += canvas.write(hint.keyLabel, x: x, y: 0, style: theme.statusKey)
            x += canvas.write(" " + hint.help, x: x, y: 0, style: theme.statusBar)
        }
        for hint in hints {
            guard x + (first ? 0 : 2) + hint.shownWidth + trailingWidth <= limit else { break }
            draw(hint)
        }
        for hint in trailingHints {
            guard x + (first ? 0 : 2) + hint.shownWidth <= limit else { break }
            draw(hint)
        }
    }
}

extension KeyBinding {
    /// The key label and the description, as the status bar draws them.
    fileprivate var shownParts: [String] { [keyLabel, help] }
    /// The columns the status bar draws for this binding.
    fileprivate var shownWidth: Int { keyLabel.displayWidth + 1 + help.displayWidth }
}

extension Array where Element == KeyBinding {
    /// Whether the status bar would draw these bindings as it draws `other`: the same keys and descriptions in the
    /// same order. Hints are set before every frame, so this compares without building their labels.
    fileprivate func showSame(as other: [KeyBinding]) -> Bool {
        elementsEqual(other) { $0.keys == $1.keys && $0.help == $1.help }
    }
}
