/// A full-width message strip for information, success or errors; hidden while it has no message.
@MainActor
open class Banner: View {
    /// The kind of message, which picks the colours.
    public enum Kind: Hashable, Sendable {
        case info, success, error
    }

    public private(set) var message: String?
    public private(set) var kind: Kind = .info

    public override init() {
        super.init()
        isHidden = true
    }

    /// Shows a message.
    public func show(_ message: String, kind: Kind = .info) {
        self.message = message
        self.kind = kind
        isHidden = false
        setNeedsDisplay()
    }

    /// Hides the banner.
    public func clear() {
        guard message != nil || !isHidden else { return }
        message = nil
        isHidden = true
        setNeedsDisplay()
    }

    private func prefix(_ glyphs: Glyphs) -> String {
        switch kind {
        case .info: return "i "
        case .success: return glyphs.check + " "
        case .error: return "! "
        }
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        guard let message else { return Size(width: proposal.width, height: 0) }
        let lines = ("i " + message).wrapped(toWidth: max(1, proposal.width - 2))
        return Size(width: proposal.width, height: min(lines.count, proposal.height))
    }

    open override func draw(in canvas: Canvas) {
        guard let message else { return }
        let theme = canvas.theme
        let style: Style
        switch kind {
        case .info: style = theme.info
        case .success: style = theme.success
        case .error: style = theme.error
        }
        canvas.fill(style: style)
        for (row, line) in (prefix(theme.glyphs) + message).wrapped(toWidth: max(1, canvas.size.width - 2)).enumerated()
        where row < canvas.size.height {
            canvas.write(line, x: 1, y: row, style: style)
        }
    }
}
