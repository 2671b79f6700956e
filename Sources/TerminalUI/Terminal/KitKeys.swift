/// The keys the kit answers itself, on every screen, whatever the app binds: help, moving between fields, going
/// back, quitting, suspending, and moving through a list or a chart. An app that lets people rebind its own keys
/// refuses these, as keys already taken.
public enum KitKeys {
    /// Shows the help overlay: `?` unless the screen takes it (a field typing it), F1 always.
    public static let helpWhenFree: Key = .character("?")
    public static let helpAlways: Key = .function(1)
    public static let help: [Key] = [helpWhenFree, helpAlways]
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
        help + nextField + previousField + back + [interrupt, suspend] + previousRow + nextRow + pageUp + pageDown + firstRow + lastRow
    )
}
