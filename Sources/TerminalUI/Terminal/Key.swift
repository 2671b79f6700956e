/// A decoded key press (or paste, resize or mouse report) from the terminal.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case tab, backTab
    case enter, escape, backspace, delete, insert
    case home, end, pageUp, pageDown
    /// F1 to F12.
    case function(Int)
    /// Ctrl with a lowercase letter (or one of `@ \ ] ^ _`).
    case ctrl(Character)
    /// Text pasted in one go (bracketed paste), newlines as `\n`.
    case paste(String)
    /// The terminal changed size.
    case resize
    /// The terminal window gained (true) or lost (false) the focus (`CSI I` / `CSI O`, mode 1004).
    case focus(Bool)
    /// A mouse report (delivered to views by position, not to key bindings).
    case mouse(MouseEvent)

    /// A short name for hints and help, such as `↑`, `Tab`, `Ctrl-U`, `F1` or `q`.
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .insert: return "Insert"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let n): return "F\(n)"
        case .ctrl(let c): return "Ctrl-\(c.uppercased())"
        case .paste: return "Paste"
        case .resize: return "Resize"
        case .focus(let gained): return gained ? "Focus in" : "Focus out"
        case .mouse: return "Mouse"
        }
    }

    /// The character typed, when this key is printable text.
    public var character: Character? {
        if case .character(let c) = self { return c }
        return nil
    }
}
