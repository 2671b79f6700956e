import TerminalUI

/// Builds scenes, pushes and pops them, and owns the child coordinators of the flows it starts.
@MainActor
protocol Coordinator: AnyObject {
    /// Child coordinators, kept alive while their flow runs and removed when they call back `.finished`.
    var children: [any Coordinator] { get set }
    func start()
}

/// A coordinator whose flow ends, telling its parent how through `onFinish`.
@MainActor
protocol FinishingCoordinator: Coordinator {
    associatedtype Event
    var onFinish: (Event) -> Void { get set }
}

extension Coordinator {
    /// Keeps `child` while its flow runs, starts it, and when it finishes lets it go and hands its event on.
    func startChild<Child: FinishingCoordinator>(_ child: Child, onFinish: @escaping (Child.Event) -> Void) {
        child.onFinish = { [weak self, weak child] event in
            guard let self, let child else { return }
            self.children.removeAll { $0 === child }
            onFinish(event)
        }
        children.append(child)
        child.start()
    }
}
