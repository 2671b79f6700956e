import SkiffCore
import TerminalUI

/// The root of the app: Launch decides, then Auth or Home runs as a child; a logout or a 401 anywhere clears
/// the stack and returns to Login.
@MainActor
public final class AppCoordinator: Coordinator {
    public var children: [any Coordinator] = []
    private let navigation: NavigationController
    private let dependencies: AppDependencies
    private var factory: SceneFactory { SceneFactory(dependencies: dependencies) }

    public init(navigation: NavigationController, dependencies: AppDependencies) {
        self.navigation = navigation
        self.dependencies = dependencies
    }

    public func start() {
        let (controller, interactor) = factory.launch()
        interactor.route = { [weak self] route in
            switch route {
            case .home(let session): self?.showHome(session)
            case .login: self?.showAuth(notice: nil)
            }
        }
        navigation.setViewControllers([controller])
        controller.start()
    }

    /// The server said the session is gone: forget it and go back to Login.
    public func sessionDidExpire() {
        guard children.contains(where: { $0 is HomeCoordinator }) else { return }
        dependencies.sessions.clear()
        dependencies.cache.clear()
        showAuth(notice: .sessionEnded)
    }

    private func showAuth(notice: Login.Notice?) {
        dependencies.tokens.set(nil)
        children.removeAll()
        let auth = AuthCoordinator(navigation: navigation, factory: factory, notice: notice)
        auth.onFinish = { [weak self, weak auth] event in
            guard let self, let auth else { return }
            self.removeChild(auth)
            switch event {
            case .finished(let session): self.showHome(session)
            }
        }
        addChild(auth)
        auth.start()
    }

    private func showHome(_ session: Session) {
        dependencies.tokens.set(session.token)
        children.removeAll()
        let home = HomeCoordinator(navigation: navigation, factory: factory, session: session)
        home.onFinish = { [weak self, weak home] event in
            guard let self, let home else { return }
            self.removeChild(home)
            switch event {
            case .finished: self.showAuth(notice: .loggedOut)
            }
        }
        addChild(home)
        home.start()
    }
}
