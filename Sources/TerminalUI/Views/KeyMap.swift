/// An app's keys in one place: each command its keys and help text (Bubbles' `DefaultKeyMap`).
///
/// The app names its commands (an enum) and gives every one its keys in one exhaustive `switch`; screens make
/// their `KeyBinding`s from it, so the keys that dispatch, the status bar's hints, the `?` overlay and every
/// sentence that names a key (`label(for:)`) come from the same entry. The kit knows nothing of the commands.
public struct KeyMap<Command: Hashable & Sendable & CaseIterable>: Sendable {
    /// One command's keys and what it does, as the status bar and the help overlay word it.
    public struct Entry: Sendable, Equatable {
        public var keys: [Key]
        public var help: String

        public init(_ keys: [Key], _ help: String) {
            self.keys = keys
            self.help = help
        }

        public init(_ key: Key, _ help: String) {
            self.init([key], help)
        }
    }

    private let entries: [Command: Entry]

    /// `entry` gives every command its keys; a `switch` over the commands makes the compiler check that none
    /// is left without.
    public init(_ entry: (Command) -> Entry) {
        var entries: [Command: Entry] = [:]
        for command in Command.allCases { entries[command] = entry(command) }
        self.entries = entries
    }

    /// The command's keys and help.
    public func entry(for command: Command) -> Entry {
        // Every case was filled in by `init`.
        entries[command] ?? Entry([], "")
    }

    /// The command's keys.
    public func keys(for command: Command) -> [Key] { entry(for: command).keys }

    /// The command's keys as a person reads them (`Enter`, `Ctrl-R`, `↑/k`), for sentences that name them.
    public func label(for command: Command) -> String {
        keys(for: command).map(\.label).joined(separator: "/")
    }

    /// Whether `key` triggers `command`.
    public func matches(_ key: Key, _ command: Command) -> Bool { keys(for: command).contains(key) }

    /// A binding for `command` with its keys; `help` words what it does on this screen when that says more
    /// than the map's help ("log in" for a submit).
    public func binding(
        _ command: Command, help: String? = nil, showsInStatusBar: Bool = true, action: @escaping @MainActor () -> Void
    ) -> KeyBinding {
        let entry = entry(for: command)
        return KeyBinding(entry.keys, help ?? entry.help, showsInStatusBar: showsInStatusBar, action: action)
    }

    /// A binding that only describes `command` (its keys are handled elsewhere, such as a list's Enter).
    public func described(_ command: Command, help: String? = nil, showsInStatusBar: Bool = false) -> KeyBinding {
        let entry = entry(for: command)
        return KeyBinding.described(entry.keys, help ?? entry.help, showsInStatusBar: showsInStatusBar)
    }
}
