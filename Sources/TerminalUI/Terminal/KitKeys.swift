/// The keys the kit answers itself, on every screen, whatever the app binds: help, moving between fields, going
/// back, quitting, suspending, and moving through a list or a chart. An app that lets people rebind its own keys
/// refuses these, as keys already taken.
public enum KitKeys {
    /// Shows the help overlay on every screen, in a text field too: `?` and F1.
    public static let helpQuestionMark: Key = .character("?")
    public static let helpAlways: Key = .function(1)
    public static let help: [Key] = [helpQuestionMark, helpAlways]
    /// In a text field, types the next key as it is: `Ctrl-V ?` types a question mark (as a shell's Ctrl-V does).
    public static let literalNext: Key = .ctrl("v")
    /// Moves the focus to the next or the previous field.
    public static let nextField: [Key] = [.tab, .down]
    public static let previousField: [Key] = [.backTab, .up]
    /// Pops the screen.
    public static let back: [Key] = [.escape]
    /// Quits (status 130) and suspends, from anywhere.
    public static let interrupt: Key = .ctrl("c")
    public static let suspend: Key = .ctrl("z")
    /// A list's or a chart's row movement.
    public static let previousRow: [Key] = [.up, .character("k")]
    public static let nextRow: [Key] = [.down, .character("j")]
    public static let pageUp: [Key] = [.pageUp]
    public static let pageDown: [Key] = [.pageDown]
    public static let firstRow: [Key] = [.home]
    public static let lastRow: [Key] = [.end]

    /// Every key above.
    public static let all: Set<Key> = Set(
        help + [literalNext] + nextField + previousField + back + [interrupt, suspend] + previousRow + nextRow + pageUp + pageDown + firstRow + lastRow
    )
}
