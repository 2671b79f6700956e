import SkiffCore
import TerminalUI

/// While someone is signed in: after a while without a key, covers every screen (modals included) with Lock,
/// and takes the cover away once the server accepts the password, leaving the screens as they were but for
/// their secrets (passwords, codes, card numbers), which are emptied when locking.
@MainActor
final class IdleLockCoordinator: FinishingCoordinator {
    enum Event {
        /// Logged out from the lock.
        case loggedOut
    }

    var children: [any Coordinator] = []
    var onFinish: (Event) -> Void = { _ in }
    private let navigation: NavigationController
    private let factory: SceneFactory
    private let session: Session
    private let timer: IdleTimer
    /// The Lock screen while locked.
    private(set) var lockScreen: LockViewController?

    init(navigation: NavigationController, factory: SceneFactory, session: Session, settings: IdleLockSettings) {
        self.navigation = navigation
        self.factory = factory
        self.session = session
        timer = IdleTimer(timeout: settings.after, clock: settings.clock)
    }

    var isLocked: Bool { lockScreen != nil }

    func start() {
        timer.onIdle = { [weak self] in self?.lock() }
        timer.start()
    }

    /// A key was pressed: the idle time starts again.
    func userDidType() {
        timer.noteActivity()
    }

    /// Empties the secrets of every screen and covers them all with Lock.
    func lock() {
        guard !isLocked else { return }
        timer.stop()
        for controller in navigation.viewControllers + navigation.presentedViewControllers where controller.isViewLoaded {
            controller.view.clearSecrets()
        }
        let (controller, interactor) = factory.lock(userName: session.user.fullName)
        interactor.route = { [weak self] route in
            guard let self else { return }
            switch route {
            case .unlocked:
                removeLock()
                timer.start()
            case .loggedOut:
                stop()
                onFinish(.loggedOut)
            }
        }
        lockScreen = controller
        navigation.cover(with: controller)
    }

    /// Stops counting and takes the lock away (the session ended).
    func stop() {
        timer.stop()
        removeLock()
    }

    private func removeLock() {
        guard isLocked else { return }
        navigation.uncover()
        lockScreen = nil
    }
}
