import TerminalUI

/// Builds scenes, pushes and pops them, and owns the child coordinators of the flows it starts.
@MainActor
public protocol Coordinator: AnyObject {
    /// Child coordinators, kept alive while their flow runs and removed when they call back `.finished`.
    var children: [any Coordinator] { get set }
    func start()
}

extension Coordinator {
    func addChild(_ child: any Coordinator) {
        children.append(child)
    }

    func removeChild(_ child: any Coordinator) {
        children.removeAll { $0 === child }
    }
}
