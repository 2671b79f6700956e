/// What a terminal can show.
public struct TerminalCapabilities: Hashable, Sendable {
    /// Whether colours may be used.
    public var hasColor: Bool
    /// Whether the locale is UTF-8, so box drawing, CJK and emoji can be written.
    public var isUnicode: Bool
    /// How many colours the terminal has (8, 16, 256 …; 0 without colour).
    var colors: Int

    public init(hasColor: Bool, isUnicode: Bool, colors: Int? = nil) {
        self.hasColor = hasColor
        self.isUnicode = isUnicode
        self.colors = colors ?? (hasColor ? 8 : 0)
    }
}

/// Why a terminal could not be started.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// `TERM` is unset, `dumb`, or cannot address the cursor.
    case unsupported(term: String)
    /// ncurses has no terminfo entry for `TERM`.
    case unknown(term: String)

    public var description: String {
        switch self {
        case .notATerminal:
            return "This program draws a full-screen interface and needs a terminal on standard input and output."
        case .unsupported(let term):
            let name = term.isEmpty ? "TERM is not set" : "TERM=\(term)"
            return "\(name) cannot move the cursor, so a full-screen interface cannot be drawn. "
                + "Run it in a terminal such as xterm, tmux or screen (for example TERM=xterm-256color)."
        case .unknown(let term):
            return "No terminfo description for TERM=\(term). Set TERM to a known terminal, such as xterm-256color."
        }
    }
}

/// A place that shows cell buffers and delivers the user's input: a real terminal or an in-memory one.
@MainActor
public protocol Terminal: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// What the terminal can show.
    var capabilities: TerminalCapabilities { get }
    /// The descriptor to watch for input, or nil when input is fed in by other means (tests).
    var inputFileDescriptor: Int32? { get }
    /// Takes over the terminal (alternate screen, raw mode).
    func start() throws
    /// Gives the terminal back in the state it was found.
    func stop()
    /// Shows a frame; only what changed since the last frame needs to reach the screen.
    func present(_ buffer: CellBuffer)
    /// Reads the input that is available now; nil when input has ended (the terminal went away).
    func readInput() -> [UInt8]?
    /// Asks the terminal for its size again (after a resize signal).
    func updateSize()
    /// Gives the terminal back to the shell for a while (Ctrl-Z).
    func suspend()
    /// Takes the terminal over again after `suspend`; the next frame is drawn in full.
    func resume()
}
