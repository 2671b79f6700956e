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

extension Key {
    /// The keys with a name of their own (not a character, Ctrl or function key), by `label`.
    public static let namedKeys: [Key] = [
        .up, .down, .left, .right, .tab, .backTab, .enter, .escape, .backspace, .delete, .insert,
        .home, .end, .pageUp, .pageDown,
    ]

    /// The key a `label` names, as an app's configuration spells it: one character, `Space`, a named key
    /// (`namedKeys`, any case), `Ctrl-` and a letter, or `F1` to `F12`; nil for anything else.
    public init?(label: String) {
        if let named = ([.character(" ")] + Key.namedKeys).first(where: { $0.label.lowercased() == label.lowercased() }) {
            self = named
            return
        }
        if label.count == 1, let character = label.first, !character.isWhitespace, !character.isNewline {
            self = .character(character)
            return
        }
        let ctrl = Key.ctrl("a").label.dropLast()
        if label.count == ctrl.count + 1, label.lowercased().hasPrefix(ctrl.lowercased()), let letter = label.last?.lowercased().first,
           letter.isLetter || "@\\]^_".contains(letter) {
            self = .ctrl(letter)
            return
        }
        let function = Key.function(1).label.dropLast()
        if label.uppercased().hasPrefix(function), let number = Int(label.dropFirst(function.count)), (1...12).contains(number) {
            self = .function(number)
            return
        }
        return nil
    }
}
