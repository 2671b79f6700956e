import TerminalUI

/// A flow of one scene pushed over its parent (Add card, Activate card): popped when the scene routes away,
/// finishing with what it produced, or nil when the person went back.
@MainActor
final class SceneFlowCoordinator<Outcome>: FinishingCoordinator {
    enum Event {
        /// The flow ended; with its outcome, or nil when cancelled.
        case finished(Outcome?)
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let build: (_ finish: @escaping (Outcome?) -> Void) -> ViewController

    /// `build` makes the scene and routes its outcome to `finish`.
    init(navigation: NavigationController, build: @escaping (_ finish: @escaping (Outcome?) -> Void) -> ViewController) {
        self.navigation = navigation
        self.build = build
    }

    func start() {
        let controller = build { [weak self] outcome in
            guard let self else { return }
            _ = self.navigation.pop()
            self.onFinish(.finished(outcome))
        }
        navigation.push(controller)
    }
}
