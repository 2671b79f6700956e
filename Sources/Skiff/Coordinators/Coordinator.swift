import TerminalUI

/// Runs one flow: shows its first screen in `start()`, routes its scenes, and owns the child flows it starts.
@MainActor
protocol Coordinator: AnyObject {
    /// Child coordinators, kept alive while their flow runs and removed when they finish.
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
    /// The one way a flow starts another: keeps `child` while its flow runs, starts it, and when it finishes lets it
    /// go and hands its event on. A screen shown over another is such a child too, a `SceneFlowCoordinator` when
    /// it is one scene; no coordinator pushes a scene itself.
    func startChild<Child: FinishingCoordinator>(_ child: Child, onFinish: @escaping (Child.Event) -> Void = { _ in }) {
        child.onFinish = { [weak self, weak child] event in
            guard let self, let child else { return }
            self.children.removeAll { $0 === child }
            onFinish(event)
        }
        children.append(child)
        child.start()
    }
}
