import SkiffCore
import TerminalUI

/// The root of the app: Launch decides, then Auth or Home runs as a child; a logout or a 401 anywhere clears
/// the stack and returns to Login.
@MainActor
final class AppCoordinator: Coordinator {
    var children: [any Coordinator] = []
    private let navigation: NavigationController
    private let dependencies: AppDependencies
    private let factory: SceneFactory
    private let idleLockSettings: IdleLockSettings?
    /// Locks the app when left alone, while someone is signed in.
    private(set) var idleLock: IdleLockCoordinator?

    /// `tasks` is where the scenes' async work runs (the application's tracked tasks); `idleLock` nil never locks.
    init(navigation: NavigationController, dependencies: AppDependencies, tasks: TaskTracker, idleLock: IdleLockSettings? = nil) {
        self.navigation = navigation
        self.dependencies = dependencies
        factory = SceneFactory(dependencies: dependencies, tasks: tasks)
        idleLockSettings = idleLock
    }

    /// A key was pressed somewhere.
    func userDidType() {
        idleLock?.userDidType()
    }

    func start() {
        let (controller, interactor) = factory.launch()
        interactor.route = { [weak self] route in
            switch route {
            case .home(let session): self?.showHome(session)
            case .login(let notice): self?.showAuth(notice: notice)
            }
        }
        navigation.setViewControllers([controller])
        controller.start()
    }

    /// The server said the session is gone: forget it and go back to Login.
    func sessionDidExpire() {
        guard children.contains(where: { $0 is HomeCoordinator }) else { return }
        dependencies.sessions.clear()
        dependencies.cache.clear()
        showAuth(notice: .sessionEnded)
    }

    private func showAuth(notice: Login.Notice?) {
        stopIdleLock()
        dependencies.tokens.set(nil)
        children.removeAll()
        startChild(AuthCoordinator(navigation: navigation, factory: factory, notice: notice)) { [weak self] event in
            switch event {
            case .finished(let session): self?.showHome(session)
            }
        }
    }

    private func showHome(_ session: Session) {
        stopIdleLock()
        dependencies.tokens.set(session.token)
        children.removeAll()
        startChild(HomeCoordinator(navigation: navigation, factory: factory, session: session)) { [weak self] event in
            switch event {
            case .finished: self?.showAuth(notice: .loggedOut)
            }
        }
        if let idleLockSettings {
            let lock = IdleLockCoordinator(navigation: navigation, factory: factory, session: session, settings: idleLockSettings)
            lock.onFinish = { [weak self] event in
                switch event {
                case .loggedOut: self?.showAuth(notice: .loggedOut)
                }
            }
            idleLock = lock
            lock.start()
        }
    }

    private func stopIdleLock() {
        idleLock?.stop()
        idleLock = nil
    }
}
