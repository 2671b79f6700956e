/// The bottom line: key hints taken from key bindings, and an optional message on the right.
@MainActor
open class StatusBar: View {
    /// The bindings whose keys are shown.
    public var hints: [KeyBinding] = [] {
        didSet { if hints.map(\.shownParts) != oldValue.map(\.shownParts) { setNeedsDisplay() } }
    }
    /// Text shown at the right end.
    public var message: String? { didSet { if message != oldValue { setNeedsDisplay() } } }

    public override init() {
        super.init()
    }

    /// The hint text as drawn, such as `Enter open  Esc back  ? help`.
    public var hintText: String {
        hints.map { $0.shownParts.joined(separator: " ") }.joined(separator: "  ")
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
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
        var x = 1
        for hint in hints {
            let key = hint.keyLabel
            let needed = key.displayWidth + 1 + hint.help.displayWidth
            guard x + needed <= limit else { break }
            x += canvas.write(key, x: x, y: 0, style: theme.statusKey)
            x += canvas.write(" " + hint.help, x: x, y: 0, style: theme.statusBar)
            x += 2
        }
    }
}

extension KeyBinding {
    /// The key label and the description, as the status bar draws them.
    fileprivate var shownParts: [String] { [keyLabel, help] }
}
