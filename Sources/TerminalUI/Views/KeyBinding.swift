/// A key binding as data: the keys, the help text, and what to do.
///
/// The same bindings drive key dispatch, the status bar's hints and the `?` overlay.
public struct KeyBinding {
    /// The keys that trigger the binding.
    public var keys: [Key]
    /// A short description for the status bar and help, such as "refresh".
    public var help: String
    /// Whether the status bar shows this binding (the `?` overlay always does).
    public var showsInStatusBar: Bool
    /// What the binding does; nil for a binding that only describes keys handled elsewhere.
    public var action: (@MainActor () -> Void)?

    public init(_ keys: [Key], _ help: String, showsInStatusBar: Bool = true, action: @escaping @MainActor () -> Void) {
        self.keys = keys
        self.help = help
        self.showsInStatusBar = showsInStatusBar
        self.action = action
    }

    public init(_ key: Key, _ help: String, showsInStatusBar: Bool = true, action: @escaping @MainActor () -> Void) {
        self.init([key], help, showsInStatusBar: showsInStatusBar, action: action)
    }

    /// A binding that is only described (its handling lives elsewhere), for hints and help listings; it never
    /// consumes its keys when dispatched.
    public static func described(_ keys: [Key], _ help: String, showsInStatusBar: Bool = false) -> KeyBinding {
        var binding = KeyBinding(keys, help, showsInStatusBar: showsInStatusBar) {}
        binding.action = nil
        return binding
    }

    /// The keys as they are shown to the user, such as `↑/k` or `Ctrl-U`.
    public var keyLabel: String {
        keys.map(\.label).joined(separator: "/")
    }

    /// Whether the binding reacts to a key.
    public func matches(_ key: Key) -> Bool {
        keys.contains(key)
    }
}

extension Array where Element == KeyBinding {
    /// Runs the first binding with an action that matches the key; returns whether one did.
    @MainActor
    public func dispatch(_ key: Key) -> Bool {
        guard let action = first(where: { $0.action != nil && $0.matches(key) })?.action else { return false }
        action()
        return true
    }
}
