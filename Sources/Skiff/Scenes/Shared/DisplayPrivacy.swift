/// Whether amounts are hidden right now (the terminal window lost the focus). Presenters word amounts through
/// `Formatting.amount`, which consults it, and present again when it changes.
@MainActor
final class DisplayPrivacy {
    /// What an amount shows while blurred.
    nonisolated static let blurredAmount = "•••"

    private var observers: [(owner: Weak, action: @MainActor () -> Void)] = []

    /// True while amounts must not be shown.
    var isBlurred = false {
        didSet {
            guard isBlurred != oldValue else { return }
            observers.removeAll { $0.owner.object == nil }
            for observer in observers { observer.action() }
        }
    }

    init() {}

    /// Calls `action` with `owner` whenever `isBlurred` changes, for as long as `owner` lives.
    func observe<Owner: AnyObject>(_ owner: Owner, _ action: @escaping @MainActor (Owner) -> Void) {
        observers.append((Weak(owner), { [weak owner] in if let owner { action(owner) } }))
    }

    private struct Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
}
